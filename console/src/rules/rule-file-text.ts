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
 * The text the rule page's editor starts from: the stored rule as the server prints it as a rule
 * file (`GET /v1/detection_rule/{id}/yaml`), which holds no tests (a stored rule keeps none), so
 * a commented example follows to fill in.
 */
export function editableRuleFile(printed: string): string {
  if (/^tests:/m.test(printed)) return printed;
  return `${printed.endsWith('\n') ? printed : `${printed}\n`}${testsTemplate}`;
}
