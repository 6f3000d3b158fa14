/**
 * The ad hoc query request (interface 2.1) checked and turned into what execution needs. The
 * HTTP schema already bounds the types; this adds what a schema cannot say (RFC 3339 times,
 * start before end), so the CLI and the API refuse the same things the same way. Any RFC 3339
 * time is taken: the range is then clamped to the instants events can have (1900 to 2262), so
 * `0001-01-01 .. 9999-12-31` means every event and a range wholly outside is an empty result.
 */
import { ValidationError, parseRfc3339Ns } from '../core/index.js';

/** The interface's limits (2.1, 8). */
export const adhocLimits = {
  defaultMaxRows: 1000,
  maxMaxRows: 100_000,
  defaultMaxBytes: 128 * 1024 * 1024,
  minMaxBytes: 1024 * 1024,
  maxMaxBytes: 128 * 1024 * 1024,
} as const;

/** The request body of `start_query` and `blocking_query`. */
export interface AdhocQueryBody {
  readonly query: string;
  readonly start_time: string;
  readonly end_time: string;
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

/** Checks a request body; every problem names its field. */
export function checkAdhocQuery(tenant: string, body: AdhocQueryBody): AdhocQuery {
  const { startNs, endNs } = checkRange(body.start_time, body.end_time);
  const maxRows = body.max_rows ?? adhocLimits.defaultMaxRows;
  if (!Number.isInteger(maxRows) || maxRows < 1 || maxRows > adhocLimits.maxMaxRows) {
    throw new ValidationError(`must be an integer from 1 to ${adhocLimits.maxMaxRows}`, { field: 'max_rows' });
  }
  const maxBytes = body.max_bytes ?? adhocLimits.defaultMaxBytes;
  if (!Number.isInteger(maxBytes) || maxBytes < adhocLimits.minMaxBytes || maxBytes > adhocLimits.maxMaxBytes) {
    throw new ValidationError(`must be an integer from ${adhocLimits.minMaxBytes} (1 MiB) to ${adhocLimits.maxMaxBytes} (128 MiB)`, { field: 'max_bytes' });
  }
  if (typeof body.query !== 'string') throw new ValidationError('must be a string', { field: 'query' });
  return { tenant, text: body.query, startNs, endNs, maxRows, maxBytes, scanBackToFront: body.scan_back_to_front ?? true };
}
