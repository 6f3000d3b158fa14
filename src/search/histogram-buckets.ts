/**
 * How a histogram cuts its range (pure, no I/O): the bucket size shown to the user, and the time
 * slices its statements run in, newest first, so that buckets appear as slices finish.
 */
import { ValidationError, clampToEventSpan, floorDiv } from '../core/index.js';
import type { TimeRange } from './query-result.js';

const second = 1_000_000_000n;
const day = 86_400n * second;
const week = 7n * day;

/** Bucket sizes a histogram chooses from, in seconds: round numbers a reader recognises. */
export const histogramBucketSeconds = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 604_800] as const;

/**
 * Buckets are aligned to multiples of their size from Monday 1970-01-05T00:00:00Z: days start at
 * midnight UTC and weeks on Monday (every size above divides 4 days, so the day grid is the same
 * as from the epoch).
 */
export const bucketOriginNs = 4n * day;

/** The fewest buckets a histogram may ask for. */
export const minHistogramBuckets = 2;

export const histogramLimits = { defaultMaxBuckets: 120, minMaxBuckets: minHistogramBuckets, maxMaxBuckets: 1000 } as const;

/** `max_buckets` checked, naming the field. */
export function checkMaxBuckets(maxBuckets: number): number {
  if (!Number.isInteger(maxBuckets) || maxBuckets < histogramLimits.minMaxBuckets || maxBuckets > histogramLimits.maxMaxBuckets) {
    throw new ValidationError(`must be an integer from ${histogramLimits.minMaxBuckets} to ${histogramLimits.maxMaxBuckets}`, { field: 'max_buckets' });
  }
  return maxBuckets;
}

/**
 * The range a histogram counts and its buckets: the range asked, clamped to the instants events
 * can have, then narrowed to the span of the events written to the query's scope (null: none).
 * A range left without events is empty (at its end) and keeps the buckets of the range asked, so
 * the chart still has an axis.
 */
export function histogramRange(
  asked: TimeRange,
  span: { readonly minTsNs: bigint; readonly maxTsNs: bigint } | null,
  maxBuckets: number,
): { range: TimeRange; buckets: BucketPlan } {
  const clamped = clampToEventSpan(asked);
  const startNs = span !== null && span.minTsNs > clamped.startNs ? span.minTsNs : clamped.startNs;
  const endNs = span !== null && span.maxTsNs + 1n < clamped.endNs ? span.maxTsNs + 1n : clamped.endNs;
  const range = span !== null && startNs < endNs ? { startNs, endNs } : { startNs: clamped.endNs, endNs: clamped.endNs };
  const shown = range.startNs < range.endNs ? range : clamped.startNs < clamped.endNs ? clamped : asked;
  return { range, buckets: chooseHistogramBuckets(shown, maxBuckets) };
}

export interface BucketPlan {
  readonly bucketNs: bigint;
  /** The start of the bucket holding the range's start (at or before it). */
  readonly firstBucketNs: bigint;
  /** How many buckets the range touches. */
  readonly buckets: number;
}

/** The start of the bucket of size `sizeNs` holding `ns`. */
export function bucketStart(ns: bigint, sizeNs: bigint): bigint {
  return bucketOriginNs + floorDiv(ns - bucketOriginNs, sizeNs) * sizeNs;
}

function planFor(range: TimeRange, sizeNs: bigint): BucketPlan {
  const first = bucketStart(range.startNs, sizeNs);
  const last = bucketStart(range.endNs - 1n, sizeNs);
  return { bucketNs: sizeNs, firstBucketNs: first, buckets: Number((last - first) / sizeNs) + 1 };
}

/**
 * The smallest listed bucket size with which the (non-empty) range touches at most `maxBuckets`
 * buckets; past a week, the smallest multiple of a week that does.
 */
export function chooseHistogramBuckets(range: TimeRange, maxBuckets: number): BucketPlan {
  // eslint-disable-next-line no-restricted-syntax -- internal invariant: the route checked the range
  if (range.endNs <= range.startNs) throw new Error('a histogram needs a non-empty range');
  // One bucket cannot always be had: a range across the origin touches two buckets of any size.
  // eslint-disable-next-line no-restricted-syntax -- internal invariant: the route checked the bucket count
  if (!Number.isInteger(maxBuckets) || maxBuckets < minHistogramBuckets) throw new Error(`a histogram needs at least ${minHistogramBuckets} buckets`);
  for (const seconds of histogramBucketSeconds) {
    const plan = planFor(range, BigInt(seconds) * second);
    if (plan.buckets <= maxBuckets) return plan;
  }
  // Whole weeks: start from the multiple that would fit without alignment, and grow until it does
  // (it does once a bucket is as long as the range is from the origin, at both ends).
  let weeks = (range.endNs - range.startNs + week * BigInt(maxBuckets) - 1n) / (week * BigInt(maxBuckets));
  for (;;) {
    const plan = planFor(range, weeks * week);
    if (plan.buckets <= maxBuckets) return plan;
    weeks += 1n;
  }
}

/** Events of the query's scope in one cell of the planning grid (from the per-minute counts). */
export interface GridCell {
  readonly index: number;
  readonly rows: number;
}

export interface HistogramSliceOptions {
  /** Cell i covers `[gridStartNs + i·gridNs, … + gridNs)`; cell edges are bucket edges. */
  readonly gridStartNs: bigint;
  readonly gridNs: bigint;
  /** Events the first (newest) slice should hold; each next one four times more. */
  readonly firstSliceRows: number;
}

/** A slice and the events of the scope it holds. */
export interface HistogramSlice extends TimeRange {
  readonly rows: number;
}

/**
 * Cuts the range into slices at cell edges, newest first, from the newest cell with events to
 * the oldest (the empty stretches before and after are not read): the first slice holds about `firstSliceRows` events and each next one four times more, so the
 * newest buckets show soon and a long range takes few statements. Slices never share a bucket,
 * so a bucket's count is final when its slice finishes.
 */
export function histogramSlices(range: TimeRange, cells: readonly GridCell[], options: HistogramSliceOptions): HistogramSlice[] {
  const { gridStartNs, gridNs } = options;
  const clamp = (ns: bigint): bigint => (ns < range.startNs ? range.startNs : ns > range.endNs ? range.endNs : ns);
  const newestFirst = cells.filter((c) => c.rows > 0).sort((a, b) => b.index - a.index);
  const slices: HistogramSlice[] = [];
  let target = options.firstSliceRows;
  let open: { startIndex: number; endIndex: number; rows: number } | null = null;
  const close = (slice: { startIndex: number; endIndex: number; rows: number }): void => {
    const startNs = clamp(gridStartNs + BigInt(slice.startIndex) * gridNs);
    const endNs = clamp(gridStartNs + BigInt(slice.endIndex + 1) * gridNs);
    if (startNs < endNs) slices.push({ startNs, endNs, rows: slice.rows });
    open = null;
    target *= 4;
  };
  // A slice spans the empty cells between its events: a statement skips them through the primary key.
  for (const cell of newestFirst) {
    const slice: { startIndex: number; endIndex: number; rows: number } =
      open === null ? { startIndex: cell.index, endIndex: cell.index, rows: cell.rows } : { startIndex: cell.index, endIndex: open.endIndex, rows: open.rows + cell.rows };
    open = slice;
    if (slice.rows >= target) close(slice);
  }
  if (open !== null) close(open);
  return slices;
}
