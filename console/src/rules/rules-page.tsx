import { TableHead } from '../common/table-head.js';
import { messageOf } from '../api/api-error.js';
import { useEffect, useState } from 'preact/hooks';
import type { DetectionRule, RuleState } from '../api/types.js';
import { Link } from '../app/link.js';
import { useSession } from '../app/session-context.js';
import { shownState } from './rule-file-text.js';

/** The tenant's rules: state, severity, tags, last alert; filtered by text, state and severity. */
export function RulesPage() {
  const { client } = useSession();
  const [rules, setRules] = useState<DetectionRule[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [state, setState] = useState<RuleState | ''>('');
  const [severity, setSeverity] = useState('');

  useEffect(() => {
    client.listRules().then(setRules, (e: unknown) => setError(messageOf(e)));
  }, [client]);

  const needle = text.toLowerCase();
  const shown = (rules ?? []).filter(
    (r) =>
      (state === '' || shownState(r) === state) &&
      (severity === '' || r.severity === severity) &&
      (needle === '' || [r.name, r.description, r.query_text, ...r.tags].some((s) => s.toLowerCase().includes(needle))),
  );
  const severities = [...new Set((rules ?? []).map((r) => r.severity))].sort();

  return (
    <section class="page" aria-labelledby="rules-title">
      <h1 id="rules-title">Detection rules</h1>
      <div class="toolbar">
        <label class="field">
          <span>Search rules</span>
          <input type="search" value={text} placeholder="name, tag, query…" onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)} />
        </label>
        <label class="field">
          <span>State</span>
          <select value={state} onChange={(e) => setState((e.currentTarget as HTMLSelectElement).value as RuleState | '')}>
            <option value="">Any</option>
            <option>Active</option>
            <option>Staging</option>
            <option>Paused</option>
          </select>
        </label>
        <label class="field">
          <span>Severity</span>
          <select value={severity} onChange={(e) => setSeverity((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">Any</option>
            {severities.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {rules === null && !error && <p class="loading">Loading rules…</p>}
      {rules !== null && rules.length === 0 && (
        <p>
          No rules yet. Create them with <code>POST /v1/detection_rule</code>, a rule file (<code>PUT /v1/detection_rule_yaml</code>) or a repository sync (
          <code>vigil rules sync</code>).
        </p>
      )}
      {rules !== null && rules.length > 0 && (
        <table class="data">
          <caption class="visually-hidden">
            {shown.length} of {rules.length} rules
          </caption>
          <TableHead columns={['Name', 'State', 'Severity', 'Tags', 'Runs', 'Last alerted']} />
          <tbody>
            {shown.map((r) => (
              <tr key={r.id}>
                <td>
                  <Link href={`/rules/${encodeURIComponent(r.id)}`}>{r.name}</Link>
                  {r.detection_rule_sync_id && <span class="tag">synced</span>}
                </td>
                <td>
                  <span class={`badge ${shownState(r)}`}>{shownState(r)}</span>
                </td>
                <td>
                  <span class={`badge ${r.severity}`}>{r.severity}</span>
                </td>
                <td>
                  {r.tags.map((t) => (
                    <span class="tag" key={t}>
                      {t}
                    </span>
                  ))}
                </td>
                <td>
                  every {r.run_frequency_s / 60} min over {r.time_range_s / 60} min
                </td>
                <td>{r.last_alerted_at ?? 'never'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
