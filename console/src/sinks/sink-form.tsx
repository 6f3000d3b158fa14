import { messageOf } from '../api/api-error.js';
import { useState } from 'preact/hooks';
import type { EventSink, SinkArgs } from '../api/types.js';

export type SinkKind = 'Webhook' | 'Pager' | 'Chat';

export interface SinkDraft {
  readonly name: string;
  readonly description: string;
  /** Null when editing and the destination was left as it is. */
  readonly args: SinkArgs | null;
}

/** The destination fields of one sink type, as the API takes them (2.7). */
function argsOf(kind: SinkKind, v: Record<string, string>): SinkArgs {
  switch (kind) {
    case 'Webhook':
      return { Webhook: { url: v.url ?? '', ...(v.signing_secret ? { signing_secret: v.signing_secret } : {}) } };
    case 'Pager':
      return { Pager: { integration_key: v.integration_key ?? '' } };
    case 'Chat':
      return { Chat: { channel_id: v.channel_id ?? '', chat_integration_id: v.chat_integration_id ?? '' } };
  }
}

const fieldsOf: Record<SinkKind, readonly { name: string; label: string; secret?: boolean; optional?: boolean }[]> = {
  Webhook: [
    { name: 'url', label: 'URL' },
    { name: 'signing_secret', label: 'Signing secret', secret: true, optional: true },
  ],
  Pager: [{ name: 'integration_key', label: 'Integration key', secret: true }],
  Chat: [
    { name: 'chat_integration_id', label: 'Chat integration id' },
    { name: 'channel_id', label: 'Channel id' },
  ],
};

/** Create or edit a sink. Secrets are never shown back: editing leaves the destination as it is unless it is typed again. */
export function SinkForm(props: { sink?: EventSink; onSubmit: (draft: SinkDraft) => Promise<void>; onCancel: () => void }) {
  const existing = props.sink;
  const [name, setName] = useState(existing?.name ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [kind, setKind] = useState<SinkKind>((existing?.event_sink_type as SinkKind) ?? 'Webhook');
  const [changeDestination, setChangeDestination] = useState(!existing);
  const [values, setValues] = useState<Record<string, string>>(() => {
    const config = existing?.configuration[existing.event_sink_type] ?? {};
    return Object.fromEntries(Object.entries(config).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await props.onSubmit({ name, description, args: changeDestination ? argsOf(kind, values) : null });
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel sink-form" onSubmit={submit} aria-label={existing ? `Edit sink ${existing.name}` : 'New sink'}>
      <h2>{existing ? `Edit ${existing.name}` : 'New sink'}</h2>
      <label class="field">
        <span>Name</span>
        <input value={name} required onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <label class="field">
        <span>Description</span>
        <input value={description} onInput={(e) => setDescription((e.currentTarget as HTMLInputElement).value)} />
      </label>
      {existing && (
        <label class="check">
          <input type="checkbox" checked={changeDestination} onChange={(e) => setChangeDestination((e.currentTarget as HTMLInputElement).checked)} />
          <span>Change the destination (secrets must be typed again)</span>
        </label>
      )}
      {changeDestination && (
        <fieldset>
          <legend>Destination</legend>
          <label class="field">
            <span>Type</span>
            <select value={kind} disabled={!!existing} onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value as SinkKind)}>
              <option value="Webhook">Webhook</option>
              <option value="Pager">Pager</option>
              <option value="Chat">Chat</option>
            </select>
          </label>
          {fieldsOf[kind].map((f) => (
            <label class="field" key={f.name}>
              <span>
                {f.label}
                {f.optional ? ' (optional)' : ''}
              </span>
              <input
                type={f.secret ? 'password' : 'text'}
                autocomplete="off"
                required={!f.optional}
                value={f.secret ? (values[f.name] ?? '') : (values[f.name] ?? '')}
                onInput={(e) => setValues({ ...values, [f.name]: (e.currentTarget as HTMLInputElement).value })}
              />
            </label>
          ))}
        </fieldset>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {existing ? 'Save' : 'Create sink'}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
