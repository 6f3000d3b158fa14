import { ApiError, messageOf } from '../api/api-error.js';
import type { VigilClient } from '../api/vigil-client.js';
import { histogramSeries } from './histogram-series.js';
import { scopeToIndex } from './scoped-query.js';
import type { SearchParams } from './search-params.js';
import { idleRun, isEventTable, newestFirst, problemsOf, type HistogramState, type SearchRun } from './search-run.js';
import type { ResolvedRange } from './time-range.js';

/** Polls often at first (short searches feel instant), then at most once a second as the interface recommends. */
const pollDelaysMs = [50, 100, 150, 250, 400, 600, 800, 1000];

/**
 * Past this many rows, polls ask for progress only (bytes scanned) and the rows come once, when
 * the search completes: every poll returns all rows so far, so refetching 100,000 rows a second
 * would cost more than the search.
 */
const intermediateRowsLimit = 10_000;

/**
 * Runs one search at a time: the query and its histogram started together on the server, polled
 * until done, and cancelled together (in the engine) by cancel() or by the next start().
 */
export class SearchRunner {
  private state: SearchRun = idleRun;
  private generation = 0;
  private running: string[] = [];

  constructor(
    private readonly client: VigilClient,
    private readonly onChange: (run: SearchRun) => void,
  ) {}

  get run(): SearchRun {
    return this.state;
  }

  /** Starts `params` over `range`; `maxBuckets` sizes the histogram for the chart's width. */
  start(params: SearchParams, range: ResolvedRange, maxBuckets: number): void {
    this.stopServerWork();
    const generation = ++this.generation;
    const scoped = scopeToIndex(params.query, params.index);
    const request = { query: scoped.text, start_time: range.start.toISOString(), end_time: range.end.toISOString() };
    this.set({ ...idleRun, status: 'running', range, startedAt: Date.now(), histogram: { status: 'running', series: null, error: null } });

    const live = (): boolean => generation === this.generation;
    // The histogram starts once the query has (its first rows come first on a busy engine) and
    // not at all for a query the server refuses.
    const startHistogram = (): void => {
      void this.client.startHistogram({ ...request, max_buckets: maxBuckets }).then(
        (answer) => {
          // The server narrows the range to the data it holds (all time): draw what it counts.
          const covered = answer.start_time && answer.end_time ? { start: new Date(answer.start_time), end: new Date(answer.end_time) } : range;
          if (live()) void this.pollHistogram(answer.qr_id, answer.bucket_s, covered, live);
        },
        (error: unknown) =>
          live() && this.setHistogram({ status: error instanceof ApiError && error.status === 404 ? 'unavailable' : 'failed', series: null, error: messageOf(error) }),
      );
    };
    void this.client.startQuery({ ...request, max_rows: params.maxRows }).then(
      (qrId) => {
        if (!live()) return;
        void this.pollQuery(qrId, live);
        startHistogram();
      },
      (error: unknown) => {
        if (!live()) return;
        const diagnostics = error instanceof ApiError ? error.diagnostics : [];
        this.set({
          ...this.state,
          status: 'failed',
          finishedAt: Date.now(),
          error: messageOf(error),
          problems: problemsOf(diagnostics, scoped.toUserOffset, params.query.length),
          histogram: { status: 'idle', series: null, error: null },
        });
      },
    );
  }

  /** Stops the search in the engine; what arrived stays on screen. */
  cancel(): void {
    if (this.state.status !== 'running') return;
    this.stopServerWork();
    this.generation++;
    const histogram: HistogramState = this.state.histogram.status === 'running' ? { ...this.state.histogram, status: 'cancelled' } : this.state.histogram;
    this.set({ ...this.state, status: 'cancelled', finishedAt: Date.now(), histogram });
  }

  /** Forgets the search (the page is left); cancels what still runs. */
  dispose(): void {
    this.stopServerWork();
    this.generation++;
  }

  private async pollQuery(qrId: string, live: () => boolean): Promise<void> {
    this.running.push(qrId);
    for (let i = 0; live(); i++) {
      try {
        const withRows = this.state.rows.length < intermediateRowsLimit;
        const progress = await this.client.queryProgress(qrId, withRows);
        if (!live()) return;
        if (!withRows && !progress.is_completed) {
          this.set({ ...this.state, bytesScanned: progress.metadata.n_bytes_scanned });
          await delay(pollDelaysMs[Math.min(i, pollDelaysMs.length - 1)]!);
          continue;
        }
        const columns = progress.results.column_ordering;
        const rows = isEventTable(columns) ? newestFirst(progress.results.rows) : progress.results.rows;
        const done = progress.is_completed;
        this.set({
          ...this.state,
          columns: columns.length > 0 ? columns : this.state.columns,
          rows: columns.length > 0 ? rows : this.state.rows,
          bytesScanned: progress.metadata.n_bytes_scanned,
          truncated: progress.metadata.truncated ?? false,
          status: done ? (progress.metadata.cancelled ? 'cancelled' : 'completed') : 'running',
          finishedAt: done ? Date.now() : null,
        });
        if (done) return this.forget(qrId);
      } catch (error) {
        if (!live()) return;
        this.forget(qrId);
        return this.set({ ...this.state, status: 'failed', error: messageOf(error), finishedAt: Date.now() });
      }
      await delay(pollDelaysMs[Math.min(i, pollDelaysMs.length - 1)]!);
    }
  }

  private async pollHistogram(qrId: string, bucketS: number, range: ResolvedRange, live: () => boolean): Promise<void> {
    this.running.push(qrId);
    for (let i = 0; live(); i++) {
      try {
        const progress = await this.client.queryProgress(qrId);
        if (!live()) return;
        const series = histogramSeries(progress.results.rows, bucketS, range);
        this.setHistogram({ status: progress.is_completed ? 'completed' : 'running', series, error: null });
        if (progress.is_completed) return this.forget(qrId);
      } catch (error) {
        if (!live()) return;
        this.forget(qrId);
        return this.setHistogram({ status: 'failed', series: this.state.histogram.series, error: messageOf(error) });
      }
      await delay(pollDelaysMs[Math.min(i, pollDelaysMs.length - 1)]!);
    }
  }

  private stopServerWork(): void {
    for (const qrId of this.running) void this.client.cancelQuery(qrId).catch(() => {});
    this.running = [];
  }

  private forget(qrId: string): void {
    this.running = this.running.filter((id) => id !== qrId);
  }

  private setHistogram(histogram: HistogramState): void {
    this.set({ ...this.state, histogram });
  }

  private set(run: SearchRun): void {
    this.state = run;
    this.onChange(run);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
