/**
 * The ad hoc query request (docs/interface.md 2.1) checked and turned into what execution needs. The
 * HTTP schema already bounds the types; this adds what a schema cannot say (RFC 3339 times,
 * start before end), so the CLI and the API refuse the same things the same way. Any RFC 3339
 * time is taken: the range is then clamped to the instants events can have (1900 to 2262), so
 * `0001-01-01 .. 9999-12-31` means every event and a range wholly outside is an empty result.
 */
import { ValidationError, minEventNs, parseRfc3339Ns } from '../core/index.js';
import type { RowPosition } from '../query/index.js';

/** The interface's limits (2.1, 8). */
export const adhocLimits = {
  defaultMaxRows: 1000,
  maxMaxRows: 100_000,
  defaultMaxBytes: 128 * 1024 * 1024,
  minMaxBytes: 1024 * 1024,
  maxMaxBytes: 128 * 1024 * 1024,
} as const;

/** An event's position in time order, as rows carry it in `row_id`: `t` its time in ns (as text), `s` its sequence. */
export interface LogEventId {
  readonly t: string;
  readonly s: number | string;
}

/** The request body of `start_query` and `blocking_query`. */
export interface AdhocQueryBody {
  readonly query: string;
  /** Default: `start_leid`'s time, else the earliest event time. */
  readonly start_time?: string | null;
  /** Default: just past `end_leid`'s time, else now. */
  readonly end_time?: string | null;
  /** Only events after this one (in time, then sequence order): the cursor of a page read front to back. */
  readonly start_leid?: LogEventId | null;
  /** Only events before this one: the cursor of a page read back to front. */
  readonly end_leid?: LogEventId | null;
  readonly max_rows?: number;
  readonly max_bytes?: number;
  readonly scan_back_to_front?: boolean;
}

export interface AdhocQuery {
  readonly tenant: string;
  readonly text: string;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly maxRows: number;
  readonly maxBytes: number;
  /** True: the latest events in range come back (newest first); false: the earliest. */
  readonly scanBackToFront: boolean;
  /** Only events strictly after / before these positions (`start_leid`, `end_leid`). */
  readonly after?: RowPosition;
  readonly before?: RowPosition;
}

/** RFC 3339 bounds `start_time` < `end_time`, as nanoseconds; each problem names its field. */
export function checkRange(startTime: string, endTime: string): { startNs: bigint; endNs: bigint } {
  const startNs = parseRfc3339Ns(startTime);
  if (startNs === null) throw new ValidationError('must be an RFC 3339 timestamp such as 2026-11-21T10:00:00Z', { field: 'start_time' });
  const endNs = parseRfc3339Ns(endTime);
  if (endNs === null) throw new ValidationError('must be an RFC 3339 timestamp such as 2026-11-21T11:00:00Z', { field: 'end_time' });
  if (startNs >= endNs) throw new ValidationError('start_time must be before end_time', { field: 'start_time' });
  return { startNs, endNs };
}

/**
 * Checks a request body; every problem names its field. A time left out comes from the cursor
 * on its side, else the widest bound (the earliest event time, `nowNs`). The cursors narrow the
 * range to their times, so slices and the histogram cover only what can be returned; a range
 * they leave empty returns no row.
 */
export function checkAdhocQuery(tenant: string, body: AdhocQueryBody, nowNs: bigint): AdhocQuery {
  const after = body.start_leid == null ? undefined : positionOf(body.start_leid, 'start_leid');
  const before = body.end_leid == null ? undefined : positionOf(body.end_leid, 'end_leid');
  const startNs = body.start_time == null ? (after?.tsNs ?? minEventNs) : parseRfc3339Ns(body.start_time);
  if (startNs === null) throw new ValidationError('must be an RFC 3339 timestamp such as 2026-11-21T10:00:00Z', { field: 'start_time' });
  const endNs = body.end_time == null ? (before === undefined ? nowNs : before.tsNs + 1n) : parseRfc3339Ns(body.end_time);
  if (endNs === null) throw new ValidationError('must be an RFC 3339 timestamp such as 2026-11-21T11:00:00Z', { field: 'end_time' });
  if (startNs >= endNs && body.start_time != null && body.end_time != null) throw new ValidationError('start_time must be before end_time', { field: 'start_time' });
  const maxRows = body.max_rows ?? adhocLimits.defaultMaxRows;
  if (!Number.isInteger(maxRows) || maxRows < 1 || maxRows > adhocLimits.maxMaxRows) {
    throw new ValidationError(`must be an integer from 1 to ${adhocLimits.maxMaxRows}`, { field: 'max_rows' });
  }
  const maxBytes = body.max_bytes ?? adhocLimits.defaultMaxBytes;
  if (!Number.isInteger(maxBytes) || maxBytes < adhocLimits.minMaxBytes || maxBytes > adhocLimits.maxMaxBytes) {
    throw new ValidationError(`must be an integer from ${adhocLimits.minMaxBytes} (1 MiB) to ${adhocLimits.maxMaxBytes} (128 MiB)`, { field: 'max_bytes' });
  }
  if (typeof body.query !== 'string') throw new ValidationError('must be a string', { field: 'query' });
  // The cursors' times bound the range (an event after `after` is at or past its time).
  const from = after !== undefined && after.tsNs > startNs ? after.tsNs : startNs;
  const to = before !== undefined && before.tsNs + 1n < endNs ? before.tsNs + 1n : endNs;
  return {
    tenant,
    text: body.query,
    startNs: from,
    endNs: to,
    maxRows,
    maxBytes,
    scanBackToFront: body.scan_back_to_front ?? true,
    ...(after ? { after } : {}),
    ...(before ? { before } : {}),
  };
}

/** A LogEventId as a position: `t` decimal nanoseconds, `s` a sequence number (an integer, or its digits). */
function positionOf(id: LogEventId, field: string): RowPosition {
  if (typeof id !== 'object' || id === null || typeof id.t !== 'string' || !/^-?\d{1,20}$/.test(id.t)) {
    throw new ValidationError(`${field}.t must be an event time in nanoseconds, as the row_id of a result row gives it`, { field: `${field}.t` });
  }
  const s = id.s;
  if (!((typeof s === 'number' && Number.isSafeInteger(s) && s >= 0) || (typeof s === 'string' && /^\d{1,20}$/.test(s)))) {
    throw new ValidationError(`${field}.s must be a non-negative integer, as the row_id of a result row gives it`, { field: `${field}.s` });
  }
  return { tsNs: BigInt(id.t), seq: BigInt(s) };
}
