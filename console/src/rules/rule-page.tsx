import { useEffect, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/api-error.js';
import type { DetectionRule, RuleState, TextDiagnostic } from '../api/types.js';
import { Link } from '../app/link.js';
import { useSession } from '../app/session-context.js';
import { YamlEditor } from '../editor/yaml-editor.js';
import { RulePreviewPanel } from './rule-preview-panel.js';
import { editableRuleFile, shownState } from './rule-file-text.js';
import { RuleTestsPanel } from './rule-tests-panel.js';

const states: readonly RuleState[] = ['Active', 'Staging', 'Paused'];

/** One rule: its state (changed in place), its file in the editor (validate, run tests) and its preview over history. */
export function RulePage(props: { id: string }) {
  const { client } = useSession();
  const [rule, setRule] = useState<DetectionRule | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [stored, setStored] = useState('');
  const [diagnostics, setDiagnostics] = useState<readonly TextDiagnostic[]>([]);
  const [validation, setValidation] = useState<string | null>(null);
  const [stateError, setStateError] = useState<string | null>(null);

  useEffect(() => {
    Promise.all([client.getRule(props.id), client.ruleFile(props.id)]).then(
      ([r, file]) => {
        setRule(r);
        setStored(editableRuleFile(file));
        setText(editableRuleFile(file));
      },
      (e: unknown) => setError(e instanceof ApiError && e.status === 404 ? 'There is no such rule in this tenant.' : messageOf(e)),
    );
  }, [client, props.id]);

  if (error)
    return (
      <section class="page">
        <h1>Rule</h1>
        <p class="error" role="alert">
          {error}
        </p>
      </section>
    );
  if (!rule) return <p class="loading">Loading rule…</p>;

  const changeState = (state: RuleState): void => {
    setStateError(null);
    client.setRuleState(rule.id, state).then(setRule, (e: unknown) => setStateError(messageOf(e)));
  };
  const validate = async (): Promise<void> => {
    setValidation('Checking…');
    try {
      const result = await client.validateRuleFile(text);
      setDiagnostics(result.diagnostics);
      setValidation(result.is_valid ? (result.warning ? `Valid, with warnings: ${result.warning}` : 'Valid') : `Invalid: ${result.error ?? 'see the problems below'}`);
    } catch (e) {
      setValidation(messageOf(e));
    }
  };

  return (
    <section class="page rule-page" aria-labelledby="rule-title">
      <p>
        <Link href="/rules">← Rules</Link>
      </p>
      <h1 id="rule-title">{rule.name}</h1>
      <div class="two-columns">
        <div>
          <div class="panel">
            <h2>File</h2>
            <p class="hint">
              The rule as a rule file, printed by the server. Edit it here to check, test and preview changes; the stored rule changes through its file
              {rule.detection_rule_sync_id ? ' in the synced repository' : ' (PUT /v1/detection_rule_yaml) or the rules API'}.
            </p>
            <YamlEditor value={text} onChange={setText} diagnostics={diagnostics} label="Rule file" />
            <div class="actions">
              <button type="button" onClick={validate}>
                Validate
              </button>
              <button type="button" class="secondary" onClick={() => (setText(stored), setDiagnostics([]), setValidation(null))}>
                Revert to the stored rule
              </button>
              {validation && (
                <span role="status" class={validation.startsWith('Valid') ? 'badge ok' : 'badge failed'}>
                  {validation}
                </span>
              )}
            </div>
            {diagnostics.length > 0 && (
              <ul class="diagnostics">
                {diagnostics.map((d, i) => (
                  <li key={i} class={d.severity === 'warning' ? 'hint' : 'error'}>
                    {d.line}:{d.column} {d.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <RuleTestsPanel text={text} onDiagnostics={setDiagnostics} />
        </div>
        <div>
          <div class="panel">
            <h2>State</h2>
            <fieldset class="state-choice">
              <legend>Enabled state</legend>
              {states.map((s) => (
                <label class="check" key={s}>
                  <input type="radio" name="rule-state" checked={shownState(rule) === s} onChange={() => changeState(s)} />
                  <span>
                    {s} <span class="hint">{s === 'Active' ? '(runs and alerts)' : s === 'Staging' ? '(runs, records detections, sends nothing)' : '(does not run)'}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            {stateError && (
              <p class="error" role="alert">
                {stateError}
              </p>
            )}
            <dl class="facts">
              <dt>Severity</dt>
              <dd>{rule.severity}</dd>
              <dt>Runs</dt>
              <dd>
                every {rule.run_frequency_s / 60} min over the last {rule.time_range_s / 60} min
              </dd>
              <dt>Last alerted</dt>
              <dd>{rule.last_alerted_at ?? 'never'}</dd>
              <dt>Sinks</dt>
              <dd>{rule.event_sink_ids?.length ? rule.event_sink_ids.length : 'none'}</dd>
            </dl>
            <p>
              <Link href={`/alerts?rule=${encodeURIComponent(rule.id)}`}>Alerts of this rule</Link>
            </p>
          </div>
          <RulePreviewPanel ruleId={rule.id} text={text} storedText={stored} onDiagnostics={setDiagnostics} />
        </div>
      </div>
    </section>
  );
}
