/** What the readers of a rule's windows share (rule-windows.ts). */
import type { Engine } from '../engine/index.js';
import type { CompiledOutput, RowIdentityPlan } from '../query/index.js';
import type { DecodedRow } from './decode-rows.js';
import type { QueryPlan } from './plan-query.js';
import { resultColumns } from './result-columns.js';
import type { TimeRange } from './query-result.js';

/** A window `[startMs, endMs)`, both whole minutes. */
export interface MinuteWindow {
  readonly startMs: number;
  readonly endMs: number;
}

export interface WindowRows {
  readonly columns: readonly string[];
  readonly rows: readonly DecodedRow[];
  /** What identifies a row for a rule's debounce: the compiled query's. */
  readonly identity: RowIdentityPlan;
}

/** Decoded rows with their columns (D28) and identity, as the compiled query's output reads them. */
export function windowRows(output: CompiledOutput, rows: readonly DecodedRow[]): WindowRows {
  return { columns: resultColumns(output, rows), rows, identity: output.identity };
}

export interface RuleWindowsDeps {
  readonly engine: Engine;
  readonly tenant: string;
  /** The query planned over the windows' whole span as a window query is (order asc, limit `maxRows`, no field types). */
  readonly plan: QueryPlan;
  readonly maxRows: number;
  readonly signal: AbortSignal;
  /** Events one chunk statement reads, about (default 20,000). */
  readonly chunkRows?: number;
  /** Counts the statements run (tests and benchmarks). */
  readonly onStatement?: (kind: 'count' | 'chunk' | 'window' | 'grouped') => void;
}

export const msNs = 1_000_000n;

/** A window's range in nanoseconds. */
export function toRange(window: MinuteWindow): TimeRange {
  return { startNs: BigInt(window.startMs) * msNs, endNs: BigInt(window.endMs) * msNs };
}
