import { TableHead } from '../common/table-head.js';
import { messageOf } from '../api/api-error.js';
import { useEffect, useState } from 'preact/hooks';
import type { Alert } from '../api/types.js';
import { Link } from '../app/link.js';
import { navigate, useLocation } from '../app/navigation.js';
import { useSession } from '../app/session-context.js';

const statuses = ['pending', 'delivered', 'failed', 'suppressed', 'no_sinks'] as const;

/** The tenant's alerts, newest first, with each delivery's state; filtered by status and rule (in the URL). */
export function AlertsPage() {
  const { client } = useSession();
  const location = useLocation();
  const query = new URLSearchParams(location.search);
  const status = query.get('status') ?? '';
  const rule = query.get('rule') ?? '';
  const [alerts, setAlerts] = useState<Alert[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = (token?: string): void => {
    client.listAlerts({ ...(status ? { status } : {}), ...(rule ? { detection_rule_id: rule } : {}) }, token).then(
      (page) => {
        setAlerts((before) => (token ? [...(before ?? []), ...page.items] : [...page.items]));
        setNext(page.nextPageToken);
      },
      (e: unknown) => setError(messageOf(e)),
    );
  };
  useEffect(() => {
    setAlerts(null);
    load();
  }, [client, status, rule]);

  const setFilter = (name: string, value: string): void => {
    const next = new URLSearchParams(location.search);
    if (value) next.set(name, value);
    else next.delete(name);
    navigate(`/alerts${next.toString() ? `?${next}` : ''}`);
  };

  return (
    <section class="page" aria-labelledby="alerts-title">
      <h1 id="alerts-title">Alerts</h1>
      <div class="toolbar">
        <label class="field">
          <span>Status</span>
          <select value={status} onChange={(e) => setFilter('status', (e.currentTarget as HTMLSelectElement).value)}>
            <option value="">Any</option>
            {statuses.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        {rule && (
          <p>
            Rule <code>{rule}</code>{' '}
            <button type="button" class="link" onClick={() => setFilter('rule', '')}>
              show every rule
            </button>
          </p>
        )}
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {alerts === null && !error && <p class="loading">Loading alerts…</p>}
      {alerts !== null && alerts.length === 0 && <p>No alerts{status || rule ? ' match' : ' yet'}.</p>}
      {alerts !== null && alerts.length > 0 && (
        <table class="data">
          <TableHead columns={['Time', 'Rule', 'Severity', 'Status', 'Deliveries']} />
          <tbody>
            {alerts.map((a) => (
              <tr key={a.id}>
                <td>
                  <Link href={`/alerts/${encodeURIComponent(a.id)}`}>{a.timestamp}</Link>
                </td>
                <td>{a.name}</td>
                <td>
                  <span class={`badge ${a.severity}`}>{a.severity}</span>
                </td>
                <td>
                  <span class={`badge ${a.status}`}>{a.status}</span>
                </td>
                <td>
                  {a.deliveries.length === 0
                    ? 'none'
                    : a.deliveries.map((d) => (
                        <span key={d.event_sink_id} class={`badge ${d.status}`} title={d.last_error ?? undefined}>
                          {d.event_sink_type ?? 'sink'}: {d.status}
                          {d.attempt_count ? ` (${d.attempt_count} attempt${d.attempt_count === 1 ? '' : 's'})` : ''}
                        </span>
                      ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next && (
        <p>
          <button type="button" class="secondary" onClick={() => load(next)}>
            Older alerts
          </button>
        </p>
      )}
    </section>
  );
}
