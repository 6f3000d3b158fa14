import type { EnabledState } from '../domain/index.js';
import type { DetectionRuleSummary } from '../store/index.js';

export const enabledStates: readonly EnabledState[] = ['Active', 'Staging', 'Paused'];

/**
 * The state a rule is in (docs/interface.md 3.1): the user's override when set, else the synced state.
 * A rule with neither (a synced rule whose file gives no `enabled`) is Paused: it must not run by accident.
 */
export function effectiveState(rule: Pick<DetectionRuleSummary, 'enabledStateOverride' | 'enabledStateSynced'>): EnabledState {
  return rule.enabledStateOverride ?? rule.enabledStateSynced ?? 'Paused';
}

/** The legacy boolean `enabled` of the create response: true when the rule runs (Active or Staging). */
export function isEnabled(state: EnabledState): boolean {
  return state !== 'Paused';
}
