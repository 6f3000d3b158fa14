import { useState } from 'preact/hooks';
import type { RulePreview, TextDiagnostic } from '../api/types.js';
import { useSession } from '../app/session-context.js';
import { diagnosticsOf, messageOf } from '../api/api-error.js';
import { useRequest } from '../common/use-request.js';
import { formatInstant } from '../search/time-range.js';

const ranges = [
  { label: 'Last 24 hours', hours: 24 },
  { label: 'Last 7 days', hours: 168 },
  { label: 'Last 30 days', hours: 720 },
] as const;

/**
 * Runs the rule over every window of a past range, as the scheduler would, and lists the windows
 * that would have alerted with their rows. Nothing is sent and the rule's state is not touched.
 */
export function RulePreviewPanel(props: { ruleId: string; text: string; storedText: string; onDiagnostics: (d: readonly TextDiagnostic[]) => void }) {
  const { client } = useSession();
  const [hours, setHours] = useState(168);
  const request = useRequest<RulePreview>();
  const preview = request.result;
  const edited = props.text !== props.storedText;

  const run = (): Promise<void> =>
    request.run(async () => {
      const end = new Date();
      const start = new Date(end.getTime() - hours * 3_600_000);
      props.onDiagnostics([]);
      try {
        return await client.previewRule({
          start_time: start.toISOString(),
          end_time: end.toISOString(),
          ...(edited ? { rule_yaml: props.text } : { rule_id: props.ruleId }),
        });
      } catch (e) {
        props.onDiagnostics(diagnosticsOf(e));
        throw e;
      }
    });

  return (
    <div class="panel preview-panel">
      <h2>Preview over history</h2>
      <p class="hint">
        Runs {edited ? 'the edited file' : 'the stored rule'} over every window of a past range, as the scheduler would. Nothing is sent; the rule's state is not touched.
      </p>
      <div class="actions">
        <label class="field">
          <span>Range</span>
          <select value={String(hours)} onChange={(e) => setHours(Number((e.currentTarget as HTMLSelectElement).value))}>
            {ranges.map((r) => (
              <option key={r.hours} value={String(r.hours)}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={run} disabled={request.busy}>
          {request.busy ? 'Previewing…' : 'Preview'}
        </button>
      </div>
      {request.error !== null && (
        <p class="error" role="alert">
          {messageOf(request.error)}
        </p>
      )}
      {preview && (
        <div role="status">
          <p>
            <strong>{preview.windows_alerted.toLocaleString('en-US')}</strong> of {preview.windows_evaluated.toLocaleString('en-US')} windows would have alerted
            {preview.truncated && ` (the newest ${preview.windows.length} are listed)`}.
          </p>
          {preview.windows.length > 0 && (
            <ol class="preview-windows">
              {preview.windows.map((w) => (
                <li key={w.start_time}>
                  <details>
                    <summary>
                      {formatInstant(new Date(w.start_time), 'utc')} → {formatInstant(new Date(w.end_time), 'utc')} UTC: {w.alerts} alert{w.alerts === 1 ? '' : 's'}, {w.n_rows} row
                      {w.n_rows === 1 ? '' : 's'}
                    </summary>
                    <pre class="rows">{w.rows.map((row) => JSON.stringify(row)).join('\n')}</pre>
                  </details>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </div>
  );
}
