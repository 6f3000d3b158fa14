import type { RuleMemory, WindowEvaluation } from './evaluate-window.js';

/**
 * The evaluator's memory held in maps: what the store's commit would remember of each window
 * (E5, E6), for evaluations that must leave the store alone (previews, and tests of the evaluator).
 */
export class InMemoryRuleMemory implements RuleMemory {
  private readonly identities = new Map<string, Map<string, number>>();
  private readonly keys = new Map<string, Map<string, number>>();

  alertedIdentities(ruleId: string, afterWindowEndMs: number): Promise<ReadonlySet<string>> {
    const seen = this.identities.get(ruleId) ?? new Map<string, number>();
    return Promise.resolve(new Set([...seen].filter(([, end]) => end > afterWindowEndMs).map(([id]) => id)));
  }

  lastSent(ruleId: string, keys: readonly string[]): Promise<ReadonlyMap<string, number>> {
    const sent = this.keys.get(ruleId) ?? new Map<string, number>();
    return Promise.resolve(new Map(keys.flatMap((k) => (sent.has(k) ? [[k, sent.get(k) as number] as const] : []))));
  }

  /**
   * What the scheduler's commit stores after a run: the alerted identities with the window's end,
   * and the dedup keys sent. As the store does, identities of windows ending by this window's
   * start are forgotten: later windows start later, so they can no longer overlap them.
   */
  record(ruleId: string, evaluation: WindowEvaluation): void {
    const seen = this.identities.get(ruleId) ?? new Map<string, number>();
    for (const [id, end] of seen) if (end <= evaluation.window.startMs) seen.delete(id);
    for (const id of evaluation.identities) seen.set(id, evaluation.window.endMs);
    this.identities.set(ruleId, seen);
    const sent = this.keys.get(ruleId) ?? new Map<string, number>();
    for (const alert of evaluation.alerts) if (alert.dedupKey !== null && !alert.suppressed) sent.set(alert.dedupKey, evaluation.window.endMs);
    this.keys.set(ruleId, sent);
  }
}
