import type { QuerySnapshot } from './query-run.js';

/** A time range of event times, `[startNs, endNs)`. */
export interface TimeRange {
  readonly startNs: bigint;
  readonly endNs: bigint;
}

export interface QueryResult {
  /** `events` for event rows (with row ids), `table` for aggregated tables. */
  readonly kind: 'events' | 'table';
  readonly columns: readonly string[];
  readonly rows: QuerySnapshot['rows'];
  readonly bytesScanned: number;
  readonly truncated: boolean;
}
