import type { Row } from '../api/types.js';
import type { ResolvedRange } from './time-range.js';

/** The bar chart's data: one bucket start (Unix seconds) and one count per bucket, gaps as zero. */
export interface HistogramSeries {
  readonly bucketS: number;
  readonly starts: number[];
  readonly counts: number[];
  readonly total: number;
}

/** The server counts buckets from Monday 1970-01-05T00:00:00Z (weeks start on Monday). */
const bucketOriginMs = Date.UTC(1970, 0, 5);

/** Bars at least this wide (CSS pixels) stay readable and clickable. */
const minBarPx = 6;

/** How many buckets to ask the server for, so a chart `widthPx` wide draws bars of a readable width. */
export function maxBucketsFor(widthPx: number): number {
  return Math.max(10, Math.min(1000, Math.floor(widthPx / minBarPx)));
}

/**
 * Spreads the histogram rows the server returned (only non-empty buckets, keyed by the bucket's
 * start time) over every bucket of the range, so empty stretches show as gaps of zero.
 */
export function histogramSeries(rows: readonly Row[], bucketS: number, range: ResolvedRange): HistogramSeries {
  const bucketMs = bucketS * 1000;
  const first = Math.floor((range.start.getTime() - bucketOriginMs) / bucketMs) * bucketMs + bucketOriginMs;
  const count = Math.max(1, Math.ceil((range.end.getTime() - first) / bucketMs));
  const starts = Array.from({ length: count }, (_, i) => (first + i * bucketMs) / 1000);
  const counts = new Array<number>(count).fill(0);
  let total = 0;
  for (const row of rows) {
    const at = Date.parse(String(row['@svc.bucket']));
    const n = Number(row.count);
    if (!Number.isFinite(at) || !Number.isFinite(n)) continue;
    const i = Math.floor((at - first) / bucketMs);
    if (i < 0 || i >= count) continue;
    counts[i]! += n;
    total += n;
  }
  return { bucketS, starts, counts, total };
}

/** The range a drag over the chart selects, snapped outwards to whole buckets; null for a click. */
export function zoomRange(series: HistogramSeries, fromS: number, toS: number): ResolvedRange | null {
  const low = Math.min(fromS, toS);
  const high = Math.max(fromS, toS);
  const origin = bucketOriginMs / 1000;
  const start = Math.floor((low - origin) / series.bucketS) * series.bucketS + origin;
  const end = Math.ceil((high - origin) / series.bucketS) * series.bucketS + origin;
  if (end - start < series.bucketS) return null;
  return { start: new Date(start * 1000), end: new Date(end * 1000) };
}

/** "1 min", "6 h": the bucket size shown under the chart. */
export function describeBucket(bucketS: number): string {
  if (bucketS % 86_400 === 0) return `${bucketS / 86_400} d`;
  if (bucketS % 3600 === 0) return `${bucketS / 3600} h`;
  if (bucketS % 60 === 0) return `${bucketS / 60} min`;
  return `${bucketS} s`;
}
