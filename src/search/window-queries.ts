/**
 * Queries over rule windows: a detection window's query (alone, or many filters of one tenant and
 * window in one statement), a rule test's window, and a preview's many windows. They run as one
 * statement each over a short range, not in the time slices of ad hoc searches, and outside the
 * ad hoc concurrency limits: their callers bound their own (the scheduler's batcher, rule test
 * runs, previews held as the tenant's blocking work).
 */
import { clampToEventSpan } from '../core/index.js';
import { adhocWorkload, type Engine, type Workload } from '../engine/index.js';
import type { QueryPlanner } from './query-planner.js';
import type { QueryResult, TimeRange } from './query-result.js';
import { ruleWindowResults, type MinuteWindow, type WindowRows } from './rule-windows.js';
import { prepareShortRange, runShortRange, runShortRangeBatch, type ShortRangeQuery, type ShortRangeResult } from './short-range-query.js';

/** One window of one rule's query, as the detection engine asks for it. */
export interface WindowQueryRequest {
  readonly tenantId: string;
  readonly queryText: string;
  /** `[startNs, endNs)` of event time. */
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** Raw events: at most this many, earliest first. Aggregations return every row. */
  readonly maxRows: number;
}

/**
 * The window side of search. `prepare`, `runAlone` and `runBatch` are the detection engine's
 * window query runner (detections' WindowQueryRunner), so its batcher takes this object as is.
 */
export class WindowQueries {
  constructor(
    private readonly engine: Engine,
    private readonly planner: QueryPlanner,
  ) {}

  /**
   * Runs a query over a short range as one statement: events earliest first up to `maxRows`, or
   * the whole aggregation. Rule tests use it: for a minute of events the histogram and time
   * slices of ad hoc searches cost more than they save. The engine counts it as the tenant's ad
   * hoc work.
   */
  async runOnce(tenant: string, text: string, range: TimeRange, maxRows: number, signal?: AbortSignal): Promise<ShortRangeResult> {
    const query = await this.prepareWith(tenant, text, range, maxRows, adhocWorkload(tenant));
    return runShortRange(this.engine, query, signal);
  }

  /**
   * Plans a detection window's query without running it: its `batchKey` says which others it can
   * share a statement with. The engine runs it within the share of sessions ad hoc queries
   * cannot take (the rule scheduler bounds how many run at once).
   */
  prepare(query: WindowQueryRequest): Promise<ShortRangeQuery> {
    return this.prepareWith(query.tenantId, query.queryText, { startNs: query.startNs, endNs: query.endNs }, query.maxRows, { kind: 'detection' });
  }

  /** Runs a prepared query alone, as `runOnce` does. */
  runAlone(query: ShortRangeQuery, signal?: AbortSignal): Promise<ShortRangeResult> {
    return runShortRange(this.engine, query, signal);
  }

  /** Runs prepared queries of one batch key in one statement; each result (or error) at its query's position. */
  runBatch(queries: readonly ShortRangeQuery[], signal?: AbortSignal): Promise<(ShortRangeResult | Error)[]> {
    return runShortRangeBatch(this.engine, queries, signal);
  }

  /**
   * A rule's query over many windows of whole minutes (rule preview), each result what `runOnce`
   * would return for the window, read with far fewer statements (rule-windows.ts). Planned over
   * the windows' span as a window query is planned.
   */
  async *ruleWindows(
    tenant: string,
    text: string,
    windows: readonly MinuteWindow[],
    maxRows: number,
    signal: AbortSignal,
  ): AsyncGenerator<{ window: MinuteWindow; rows: WindowRows }> {
    const first = windows[0];
    const last = windows.at(-1);
    if (first === undefined || last === undefined) return;
    const span = { startNs: BigInt(first.startMs) * 1_000_000n, endNs: BigInt(last.endMs) * 1_000_000n };
    const plan = await this.planner.plan(tenant, text, clampToEventSpan(span), { order: 'asc', limit: maxRows });
    yield* ruleWindowResults({ engine: this.engine, tenant, plan, maxRows, signal }, windows);
  }

  private async prepareWith(tenant: string, text: string, range: TimeRange, maxRows: number, workload: Workload): Promise<ShortRangeQuery> {
    const clamped = clampToEventSpan(range);
    return prepareShortRange((output) => this.planner.plan(tenant, text, clamped, output), tenant, clamped, maxRows, workload);
  }
}
