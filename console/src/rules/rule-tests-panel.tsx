import { TableHead } from '../common/table-head.js';
import type { RuleTestRun, TextDiagnostic } from '../api/types.js';
import { useSession } from '../app/session-context.js';
import { diagnosticsOf, messageOf } from '../api/api-error.js';
import { useRequest } from '../common/use-request.js';

/** Runs the tests of the file in the editor on the server's engine and shows each test's outcome. */
export function RuleTestsPanel(props: { text: string; onDiagnostics: (d: readonly TextDiagnostic[]) => void }) {
  const { client } = useSession();
  const request = useRequest<RuleTestRun>();
  const run = request.result;

  const runTests = (): Promise<void> =>
    request.run(async () => {
      props.onDiagnostics([]);
      try {
        return await client.runRuleTests(props.text);
      } catch (e) {
        props.onDiagnostics(diagnosticsOf(e));
        throw e;
      }
    });

  return (
    <div class="panel">
      <h2>Tests</h2>
      <div class="actions">
        <button type="button" onClick={runTests} disabled={request.busy}>
          {request.busy ? 'Running tests…' : 'Run tests'}
        </button>
        {run && (
          <span role="status" class={`badge ${run.status}`}>
            {run.status === 'Passed' ? (run.tests.length === 0 ? 'No tests in the file' : 'All tests passed') : 'Tests failed'}
          </span>
        )}
      </div>
      {request.error !== null && (
        <p class="error" role="alert">
          {messageOf(request.error)}
        </p>
      )}
      {run && run.tests.length > 0 && (
        <table class="data">
          <TableHead columns={['Test', 'Result', 'Expected detection', 'Detected']} />
          <tbody>
            {run.tests.map((r) => (
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
