/**
 * Cursor bounds of a scan: only events strictly after, or strictly before, a position in the
 * order results come in (time, then the ingest sequence, which is unique within a tenant). They
 * page through a range by the `row_id` of the last row seen (`start_leid` / `end_leid`), where a
 * time bound alone would repeat or skip the events sharing the last row's time.
 */
import { sqlInteger, sqlTimestampNs } from '../../core/index.js';

/** An event's position: its time in nanoseconds and its sequence number. */
export interface RowPosition {
  readonly tsNs: bigint;
  readonly seq: bigint;
}

/** The scan conditions for the bounds given (none when neither is). */
export function rowBoundConditions(after: RowPosition | undefined, before: RowPosition | undefined): string[] {
  const position = (p: RowPosition): string => `(${sqlTimestampNs(p.tsNs)}, ${sqlInteger(p.seq)})`;
  return [...(after ? [`(ts, seq) > ${position(after)}`] : []), ...(before ? [`(ts, seq) < ${position(before)}`] : [])];
}
