import { TableHead } from '../common/table-head.js';
import { messageOf } from '../api/api-error.js';
import { useEffect, useState } from 'preact/hooks';
import type { EventSink, SinkTestResult } from '../api/types.js';
import { useSession } from '../app/session-context.js';
import { SinkForm } from './sink-form.js';

/** The tenant's sinks: list, create, edit, delete, and send a test alert to one. */
export function SinksPage() {
  const { client } = useSession();
  const [sinks, setSinks] = useState<EventSink[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<EventSink | 'new' | null>(null);
  const [tests, setTests] = useState<Record<string, SinkTestResult | string>>({});

  const load = (): void => {
    client.listSinks().then(setSinks, (e: unknown) => setError(messageOf(e)));
  };
  useEffect(load, [client]);

  const test = async (sink: EventSink): Promise<void> => {
    setTests((t) => ({ ...t, [sink.id]: 'Sending…' }));
    try {
      const result = await client.testSink(sink.id);
      setTests((t) => ({ ...t, [sink.id]: result }));
    } catch (e) {
      setTests((t) => ({ ...t, [sink.id]: messageOf(e) }));
    }
  };
  const remove = async (sink: EventSink): Promise<void> => {
    if (!confirm(`Delete sink ${sink.name}? Rules that use it stop sending to it.`)) return;
    try {
      await client.deleteSink(sink.id);
      load();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <section class="page" aria-labelledby="sinks-title">
      <h1 id="sinks-title">Sinks</h1>
      <p class="hint">Where alerts go: webhooks, pagers and chat channels. Secrets are stored sealed and never shown again.</p>
      <div class="actions">
        <button type="button" onClick={() => setEditing('new')}>
          New sink
        </button>
      </div>
      {editing && (
        <SinkForm
          sink={editing === 'new' ? undefined : editing}
          onCancel={() => setEditing(null)}
          onSubmit={async (draft) => {
            if (editing === 'new') {
              if (!draft.args) return;
              await client.createSink({ name: draft.name, description: draft.description, event_sink_args: draft.args });
            } else {
              await client.updateSink(editing.id, { name: draft.name, description: draft.description, ...(draft.args ? { event_sink_args: draft.args } : {}) });
            }
            setEditing(null);
            load();
          }}
        />
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {sinks === null && !error && <p class="loading">Loading sinks…</p>}
      {sinks !== null && sinks.length === 0 && <p>No sinks yet.</p>}
      {sinks !== null && sinks.length > 0 && (
        <table class="data">
          <TableHead columns={['Name', 'Type', 'Destination', 'Actions', 'Last test']} />
          <tbody>
            {sinks.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.name}
                  {s.description && <div class="hint">{s.description}</div>}
                </td>
                <td>{s.event_sink_type}</td>
                <td>
                  <code>{destinationOf(s)}</code>
                </td>
                <td>
                  <div class="actions">
                    <button type="button" class="secondary" onClick={() => test(s)} aria-label={`Send a test alert to ${s.name}`}>
                      Send a test alert
                    </button>
                    <button type="button" class="secondary" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>
                      Edit
                    </button>
                    <button type="button" class="secondary" onClick={() => remove(s)} aria-label={`Delete ${s.name}`}>
                      Delete
                    </button>
                  </div>
                </td>
                <td role="status">
                  <TestOutcome result={tests[s.id]} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function TestOutcome(props: { result: SinkTestResult | string | undefined }) {
  const { result } = props;
  if (result === undefined) return null;
  if (typeof result === 'string') return <span>{result}</span>;
  return (
    <span class={`badge ${result.delivered ? 'delivered' : 'failed'}`}>
      {result.delivered ? 'Delivered' : 'Not delivered'}
      {result.http_status !== null && ` · HTTP ${result.http_status}`} · {result.latency_ms} ms{result.error && ` · ${result.error}`}
    </span>
  );
}

function destinationOf(sink: EventSink): string {
  const config = sink.configuration[sink.event_sink_type] ?? {};
  const shown = config.url ?? config.channel_id ?? config.channel ?? (sink.event_sink_type === 'Pager' ? 'integration key (hidden)' : '');
  return String(shown);
}
