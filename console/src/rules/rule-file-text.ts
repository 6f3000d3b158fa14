import { stringify } from 'yaml';
import type { DetectionRule, RuleState } from '../api/types.js';

/** A rule's state as the scheduler sees it: the override, else the synced state, else Paused. */
export function shownState(rule: Pick<DetectionRule, 'enabled_state_override' | 'enabled_state_synced'>): RuleState {
  return rule.enabled_state_override ?? rule.enabled_state_synced ?? 'Paused';
}

/** A commented example the user can uncomment to test the rule on events of their own. */
const testsTemplate = `
# tests:
#   - name: fires on a matching event
#     now_timestamp: "2026-01-01T00:05:00Z"
#     dataset_inline: |
#       {"@svc": {"datetime": "2026-01-01T00:04:00Z"}, "user": "alice"}
#     expected_detection_result: true
`;

/**
 * The rule as a rule file (docs/rule-files.md): the fields a file holds, defaults left out,
 * multi-line text as literal blocks. Sinks are not part of it (a file names sink keys, which a
 * stored rule does not keep), so the text is for checking, testing and previewing.
 */
export function ruleFileText(rule: DetectionRule): string {
  const file: Record<string, unknown> = {
    name: rule.name,
    description: rule.description,
    enabled: shownState(rule),
    severity: rule.severity,
    query_text: rule.query_text,
    time_range_s: rule.time_range_s,
    run_frequency_s: rule.run_frequency_s,
  };
  if (rule.dedup_window_s !== null && rule.dedup_window_s !== undefined) file.dedup_window_s = rule.dedup_window_s;
  if (!rule.debounce) file.debounce = false;
  if (rule.alert_per_row) file.alert_per_row = true;
  if (rule.sync_key) file.push_key = rule.sync_key;
  if (rule.tags.length > 0) file.tags = [...rule.tags];
  if (rule.alert_template) file.alert_template = rule.alert_template;
  return stringify(file, { lineWidth: 0, blockQuote: 'literal' }) + testsTemplate;
}
