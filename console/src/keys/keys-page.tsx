import { TableHead } from '../common/table-head.js';
import { messageOf } from '../api/api-error.js';
import { useEffect, useState } from 'preact/hooks';
import type { ApiKey } from '../api/types.js';
import { useSession } from '../app/session-context.js';

/** API keys (admin keys only): list, create (the secret is shown once), revoke. */
export function KeysPage() {
  const { client, me } = useSession();
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);

  const load = (): void => {
    client.listKeys().then(setKeys, (e: unknown) => setError(messageOf(e)));
  };
  useEffect(load, [client]);

  if (!me.api_key.admin)
    return (
      <section class="page">
        <h1>API keys</h1>
        <p>Only an admin key can manage keys.</p>
      </section>
    );

  const revoke = async (key: ApiKey): Promise<void> => {
    if (!confirm(`Revoke key ${key.name}? Clients using it are refused from now on.`)) return;
    try {
      await client.revokeKey(key.id);
      load();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <section class="page" aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <NewKeyForm
        tenants={me.tenants.map((t) => t.id)}
        onCreate={async (request) => {
          const answer = await client.createKey(request);
          setCreated({ name: answer.api_key.name, key: answer.key });
          load();
        }}
      />
      {created && (
        <div class="panel" role="status">
          <h2>Key {created.name} created</h2>
          <p>Copy it now: it is shown only this once.</p>
          <p class="secret">{created.key}</p>
          <button type="button" class="secondary" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {keys && (
        <table class="data">
          <TableHead columns={['Name', 'Prefix', 'Scope', 'Created', 'Last used', 'State']} />
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td>
                  {k.name}
                  {k.id === me.api_key.id && <span class="tag">this key</span>}
                </td>
                <td>
                  <code>{(k as { prefix?: string }).prefix ?? ''}</code>
                </td>
                <td>{k.admin ? 'admin (every tenant)' : (k.tenant_ids ?? []).join(', ')}</td>
                <td>{k.created_at ?? ''}</td>
                <td>{k.last_used_at ?? 'never'}</td>
                <td>
                  {k.revoked_at ? (
                    <span class="badge Paused">revoked {k.revoked_at}</span>
                  ) : k.id === me.api_key.id ? (
                    <span class="badge ok">in use</span>
                  ) : (
                    <button type="button" class="secondary" onClick={() => revoke(k)} aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function NewKeyForm(props: { tenants: readonly string[]; onCreate: (request: { name: string; tenant_ids?: string[]; admin?: boolean }) => Promise<void> }) {
  const [name, setName] = useState('');
  const [admin, setAdmin] = useState(false);
  const [tenants, setTenants] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setError(null);
    const ids = tenants
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t.length > 0);
    if (!admin && ids.length === 0) return setError('name at least one tenant, or make an admin key');
    try {
      await props.onCreate(admin ? { name, admin: true } : { name, tenant_ids: ids });
      setName('');
      setTenants('');
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <form class="panel toolbar" onSubmit={submit} aria-label="New key">
      <label class="field">
        <span>Name</span>
        <input value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <label class="field">
        <span>Tenants (comma-separated)</span>
        <input value={tenants} disabled={admin} placeholder={props.tenants.join(', ')} onInput={(e) => setTenants((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <label class="check">
        <input type="checkbox" checked={admin} onChange={(e) => setAdmin((e.currentTarget as HTMLInputElement).checked)} />
        <span>Admin (every tenant)</span>
      </label>
      <button type="submit">Create key</button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
