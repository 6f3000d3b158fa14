import { useState } from 'preact/hooks';
import type { RuleTestRun, TextDiagnostic } from '../api/types.js';
import { useSession } from '../app/session-context.js';
import { diagnosticsOf } from '../api/api-error.js';

/** Runs the tests of the file in the editor on the server's engine and shows each test's outcome. */
export function RuleTestsPanel(props: { text: string; onDiagnostics: (d: readonly TextDiagnostic[]) => void }) {
  const { client } = useSession();
  const [run, setRun] = useState<RuleTestRun | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const runTests = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    setRun(null);
    try {
      const result = await client.runRuleTests(props.text);
      setRun(result);
      props.onDiagnostics([]);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      props.onDiagnostics(diagnosticsOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="panel">
      <h2>Tests</h2>
      <div class="actions">
        <button type="button" onClick={runTests} disabled={busy}>
          {busy ? 'Running tests…' : 'Run tests'}
        </button>
        {run && (
          <span role="status" class={`badge ${run.status}`}>
            {run.status === 'Passed' ? (run.results.length === 0 ? 'No tests in the file' : 'All tests passed') : 'Tests failed'}
          </span>
        )}
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {run && run.results.length > 0 && (
        <table class="data">
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Result</th>
              <th scope="col">Expected detection</th>
              <th scope="col">Detected</th>
            </tr>
          </thead>
          <tbody>
            {run.results.map((r) => (
              <tr key={r.name}>
                <td>{r.name}</td>
                <td>
                  <span class={`badge ${r.status}`}>{r.status}</span>
                </td>
                <td>{String(r.expected_detection_result)}</td>
                <td>
                  {String(r.detection_result)}
                  {r.status !== 'Passed' && r.rows && r.rows.length > 0 && <pre class="rows">{r.rows.map((row) => JSON.stringify(row)).join('\n')}</pre>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
