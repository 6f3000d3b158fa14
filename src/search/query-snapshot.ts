/** What `query_progress` reads of a run, whatever the run (an ad hoc query, a histogram). */
import type { VigilError } from '../core/index.js';
import type { DecodedRow } from './decode-rows.js';

export type QueryStatus = 'running' | 'completed' | 'failed' | 'cancelled';

/** What a client may see of a query at any moment. */
export interface QuerySnapshot {
  readonly status: QueryStatus;
  /** `events` (rows carry row ids, time order) or `table` (an aggregated table). */
  readonly kind: 'events' | 'table';
  readonly columns: readonly string[];
  readonly rows: readonly DecodedRow[];
  readonly bytesScanned: number;
  /** Rows were left out because the table reached `max_bytes`. */
  readonly truncated: boolean;
  readonly error: VigilError | null;
}
