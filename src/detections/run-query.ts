import type { RowIdentityPlan, TableValue } from '../query/index.js';

/** One window of one rule's query, as the evaluator asks for it. */
export interface WindowQuery {
  readonly tenantId: string;
  readonly queryText: string;
  /** `[startNs, endNs)` of event time. */
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** Raw events: at most this many, earliest first. Aggregations return every row. */
  readonly maxRows: number;
  readonly signal?: AbortSignal;
}

/** A result row: the event's row id for raw events (null for aggregated tables) and its cells. */
export interface ResultRow {
  readonly rowId: { readonly t: string; readonly s: string } | null;
  readonly columns: Readonly<Record<string, TableValue>>;
}

export interface QueryRows {
  readonly columns: readonly string[];
  readonly rows: readonly ResultRow[];
  /** What identifies a row for debounce (E5), as the query's compiler decided it. */
  readonly identity: RowIdentityPlan;
}

/**
 * Runs a rule's query over a window on the events engine. The detections module receives it as
 * an argument (docs/architecture.md, "Layers"): the composition root wires it to the search service.
 */
export type RunQuery = (query: WindowQuery) => Promise<QueryRows>;
