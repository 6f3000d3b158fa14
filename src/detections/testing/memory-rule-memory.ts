import type { RuleMemory, WindowEvaluation } from '../evaluate-window.js';

/** The evaluator's memory held in maps, for tests of the evaluator alone. */
export class MemoryRuleMemory implements RuleMemory {
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

  /** What the scheduler's commit stores after a run. */
  record(ruleId: string, evaluation: WindowEvaluation): void {
    const seen = this.identities.get(ruleId) ?? new Map<string, number>();
    for (const id of evaluation.identities) seen.set(id, evaluation.window.endMs);
    this.identities.set(ruleId, seen);
    const sent = this.keys.get(ruleId) ?? new Map<string, number>();
    for (const alert of evaluation.alerts) if (alert.dedupKey !== null && !alert.suppressed) sent.set(alert.dedupKey, evaluation.window.endMs);
    this.keys.set(ruleId, sent);
  }
}
