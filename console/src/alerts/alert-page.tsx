import { TableHead } from '../common/table-head.js';
import { messageOf } from '../api/api-error.js';
import { useEffect, useState } from 'preact/hooks';
import type { Alert, Row } from '../api/types.js';
import { Link } from '../app/link.js';
import { useSession } from '../app/session-context.js';

/** One alert: what it found, every delivery with each attempt (time, outcome, HTTP status, latency, error), and resend. */
export function AlertPage(props: { id: string }) {
  const { client } = useSession();
  const [alert, setAlert] = useState<Alert | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [resend, setResend] = useState<string | null>(null);

  const load = (): void => {
    client.getAlert(props.id).then(setAlert, (e: unknown) => setError(messageOf(e)));
  };
  useEffect(load, [client, props.id]);

  if (error)
    return (
      <section class="page">
        <h1>Alert</h1>
        <p class="error" role="alert">
          {error}
        </p>
      </section>
    );
  if (!alert) return <p class="loading">Loading alert…</p>;

  const doResend = async (): Promise<void> => {
    setResend('Queuing…');
    try {
      setAlert(await client.resendAlert(alert.id));
      setResend('Queued again: the server sends it to every sink now.');
    } catch (e) {
      setResend(messageOf(e));
    }
  };
  const table = alert.results_table as { column_ordering?: string[]; rows?: Row[] } | undefined;

  return (
    <section class="page" aria-labelledby="alert-title">
      <p>
        <Link href="/alerts">← Alerts</Link>
      </p>
      <h1 id="alert-title">{alert.name}</h1>
      <p>
        <span class={`badge ${alert.severity}`}>{alert.severity}</span> <span class={`badge ${alert.status}`}>{alert.status}</span> at {alert.timestamp} ·{' '}
        <Link href={`/rules/${encodeURIComponent(alert.detection_rule_id)}`}>the rule</Link>
      </p>
      <div class="actions">
        <button type="button" onClick={doResend} disabled={alert.deliveries.length === 0}>
          Resend
        </button>
        <button type="button" class="secondary" onClick={load}>
          Refresh
        </button>
        {resend && <span role="status">{resend}</span>}
        {alert.deliveries.length === 0 && <span class="hint">Nothing to resend: this alert had no deliveries (suppressed, or no sinks).</span>}
      </div>
      <h2>Deliveries</h2>
      {alert.deliveries.map((d) => (
        <div class="panel" key={d.event_sink_id}>
          <h3>
            {d.event_sink_type ?? 'Sink'} <code>{d.event_sink_id}</code> <span class={`badge ${d.status}`}>{d.status}</span>
          </h3>
          {(d.attempts ?? []).length === 0 ? (
            <p class="hint">No attempt yet{d.next_attempt_at ? `; next at ${d.next_attempt_at}` : ''}.</p>
          ) : (
            <table class="data">
              <TableHead columns={['Attempt at', 'Outcome', 'HTTP status', 'Latency', 'Error']} />
              <tbody>
                {(d.attempts ?? []).map((a, i) => (
                  <tr key={i}>
                    <td>{a.at}</td>
                    <td>
                      <span class={`badge ${a.outcome ?? a.status ?? ''}`}>{a.outcome ?? a.status}</span>
                    </td>
                    <td>{a.http_status ?? '—'}</td>
                    <td class="number">{a.latency_ms === null ? '—' : `${a.latency_ms} ms`}</td>
                    <td>{a.error ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ))}
      {table?.rows && table.rows.length > 0 && (
        <>
          <h2>Results</h2>
          <pre class="rows">{table.rows.map((r) => JSON.stringify(r)).join('\n')}</pre>
        </>
      )}
    </section>
  );
}
