/** Test events for the evaluator: user columns plus defaults for the system facts. */
import type { EvalEvent } from '../eval-table.js';

/** Base time of test events: 2026-11-21T10:00:00Z in nanoseconds. */
export const baseNs = 1_795_255_200_000_000_000n;

/**
 * An event with the given columns. Without an explicit time, events are one second apart in the
 * order of `seq`, so a list built with increasing seq is already oldest first.
 */
export function event(columns: Record<string, string | number | null>, facts: Partial<Omit<EvalEvent, 'columns'>> = {}): EvalEvent {
  const seq = facts.seq ?? 0n;
  return {
    columns,
    tsNs: facts.tsNs ?? baseNs + seq * 1_000_000_000n,
    seq,
    sourceType: facts.sourceType ?? 'custom:generic',
    indexName: facts.indexName ?? 'main',
    indexId: facts.indexId ?? '00000000-0000-4000-8000-000000000001',
    systemIndex: facts.systemIndex ?? false,
  };
}

/** Events with seq 0, 1, 2, … from a list of column maps. */
export function events(...columns: Array<Record<string, string | number | null>>): EvalEvent[] {
  return columns.map((c, i) => event(c, { seq: BigInt(i) }));
}
