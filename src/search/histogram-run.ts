/**
 * An event-count histogram running as an ad hoc query does: a record that `query_progress`
 * reads and `cancel_query` stops, admitted under the same concurrency limits. The range is cut
 * into time slices at bucket edges (histogram-buckets.ts), newest first, each one statement
 * counting the query's rows per bucket; a slice's buckets show as soon as it finishes.
 */
import type { Logger } from '../core/index.js';
import { BackgroundRun } from './background-run.js';
import { adhocWorkload, type Engine } from '../engine/index.js';
import { compileRowHistogram, compileTimeHistogram } from '../query/index.js';
import type { DecodedRow } from './decode-rows.js';
import { histogramSlices, type BucketPlan } from './histogram-buckets.js';
import type { QueryPlan } from './plan-query.js';
import type { QuerySnapshot } from './query-snapshot.js';
import type { TimeRange } from './query-result.js';

/** The columns of a histogram's rows. */
export const histogramColumns = ['@svc.bucket', 'count'] as const;

/** Events of the scope the newest slice covers; each next one covers four times more. */
const firstSliceRows = 50_000;

/** A slice over at least this many events also looks up parts of words (as search slices do, docs/search.md). */
const partialWordsRows = 20_000;

const minuteNs = 60_000_000_000n;

export interface HistogramRequest {
  readonly tenant: string;
  /** The range counted, already clamped and narrowed to the scope's events. */
  readonly range: TimeRange;
  readonly buckets: BucketPlan;
}

export class HistogramRun extends BackgroundRun {
  private readonly counts = new Map<bigint, number>();

  constructor(
    readonly request: HistogramRequest,
    private readonly deps: { readonly engine: Engine; readonly logger: Logger },
    plan: QueryPlan,
  ) {
    super(deps.logger, 'counting events per bucket');
    this.start(() => this.execute(plan));
  }

  get tenant(): string {
    return this.request.tenant;
  }

  snapshot(): QuerySnapshot {
    return { status: this.status, kind: 'table', columns: histogramColumns, rows: this.rows, bytesScanned: this.bytesScanned, truncated: false, error: this.error };
  }

  private async execute(plan: QueryPlan): Promise<void> {
    const { tenant, range, buckets } = this.request;
    if (range.endNs <= range.startNs) return;
    const signal = this.abort.signal;
    // Plan the slices from the per-minute counts of the scope, on a grid whose cells are whole
    // minutes and whole buckets (every size under a minute divides one).
    const gridNs = buckets.bucketNs < minuteNs ? minuteNs : buckets.bucketNs;
    const gridStartNs = buckets.firstBucketNs - (((buckets.firstBucketNs % gridNs) + gridNs) % gridNs);
    // The counts cover whole cells: the minute holding the range's end counts even when the end is inside it.
    const gridEndNs = gridStartNs + ((range.endNs - gridStartNs + gridNs - 1n) / gridNs) * gridNs;
    const counted = await this.deps.engine.query<{ bucket: number; rows: string }>(
      compileTimeHistogram(plan.analyzed, { tenant, startNs: gridStartNs, endNs: gridEndNs }, gridNs),
      { signal, workload: adhocWorkload(tenant) },
    );
    this.bytesScanned += counted.stats.bytesRead;
    const cells = counted.rows.map((row) => ({ index: Number(row.bucket), rows: Number(row.rows) }));
    for (const slice of histogramSlices(range, cells, { gridStartNs, gridNs, firstSliceRows })) {
      if (signal.aborted) return;
      const compiled = compileRowHistogram(plan.analyzed, {
        tenant,
        startNs: slice.startNs,
        endNs: slice.endNs,
        firstBucketNs: buckets.firstBucketNs,
        bucketNs: buckets.bucketNs,
        partialWords: slice.rows >= partialWordsRows,
      });
      const result = await this.deps.engine.query<{ bucket: string; rows: number }>(compiled.sql, { settings: compiled.settings, signal, workload: adhocWorkload(tenant) });
      if (signal.aborted) return;
      this.bytesScanned += result.stats.bytesRead;
      for (const row of result.rows) this.counts.set(BigInt(row.bucket), (this.counts.get(BigInt(row.bucket)) ?? 0) + Number(row.rows));
      this.rows = this.bucketRows();
    }
  }

  /** The non-empty buckets in time order, as flat rows. */
  private bucketRows(): DecodedRow[] {
    const { firstBucketNs, bucketNs } = this.request.buckets;
    return [...this.counts.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([index, count]) => {
        const columns = Object.create(null) as DecodedRow['columns'];
        columns['@svc.bucket'] = formatBucketTime(firstBucketNs + index * bucketNs);
        columns.count = count;
        return { rowId: null, columns };
      });
  }
}

/** A bucket start as RFC 3339: whole seconds without a fraction, as every bucket size is. */
export function formatBucketTime(ns: bigint): string {
  const ms = Number(ns / 1_000_000n);
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
