/**
 * Ad hoc queries for the API and the CLI (interface 4.1): start, progress, cancel and blocking
 * queries, with the concurrency limits and the record lifetime an operator configures. Query
 * records live in memory (embedded mode); the tenant's indexes come from the caller.
 */
import { EngineError, ErrorCodes, NotFoundError, TooManyRequestsError, clampToEventSpan, type Clock, type Logger } from '../core/index.js';
import type { Engine, Workload } from '../engine/index.js';
import type { IndexInfo, PredicatePlan } from '../query/index.js';
import { adhocLimits, checkAdhocQuery, type AdhocQuery, type AdhocQueryBody } from './adhoc-request.js';
import { planQuery, type QueryPlan, type QueryRequest } from './plan-query.js';
import { QueryRun, type QuerySnapshot } from './query-run.js';
import { prepareShortRange, runShortRange, runShortRangeBatch, type ShortRangeQuery } from './short-range-query.js';
import { FieldCatalogCache } from './field-catalog-cache.js';
import type { QueryResult, TimeRange } from './query-result.js';

export type { QueryResult, TimeRange } from './query-result.js';

export interface SearchSettings {
  /** A blocking query that runs longer is cancelled and answers 504 (interface 8: 300 s). */
  readonly blockingTimeoutS: number;
  /** How long a finished query's record answers `query_progress` (default 10 minutes). */
  readonly resultTtlS: number;
  /** Queries running at once, over all tenants, and per tenant; past them: 429. */
  readonly maxConcurrent: number;
  readonly maxConcurrentPerTenant: number;
  /** An event search whose text index leaves at most this many rows to read runs as one statement, not in slices. */
  readonly selectiveReadRows?: number;
}

export const defaultSearchSettings: SearchSettings = { blockingTimeoutS: 300, resultTtlS: 600, maxConcurrent: 8, maxConcurrentPerTenant: 4 };

interface Entry {
  readonly tenant: string;
  readonly run: QueryRun;
  finishedAtMs: number | null;
}

export interface RunOptions {
  /** Event results: at most this many rows, newest first unless `order` is `asc`. */
  readonly maxRows: number;
  readonly order?: 'asc' | 'desc';
  /** Default 128 MiB, the interface's maximum. */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
}

export interface QueryExplanation {
  readonly plan: QueryPlan;
  readonly predicates: readonly PredicatePlan[];
}

/** How a query is planned: a short-range query's order and limit; ad hoc ones use field types. */
type PlanOptions = Pick<QueryRequest, 'order' | 'limit' | 'useFieldTypes' | 'partialWords'>;

export class SearchService {
  private readonly entries = new Map<string, Entry>();
  private readonly running = new Set<QueryRun>();
  private readonly catalog: FieldCatalogCache;

  constructor(
    private readonly engine: Engine,
    /** The tenant's live indexes, system ones included: read for every query, so a new index is searchable at once. */
    private readonly indexesOf: (tenant: string) => Promise<readonly IndexInfo[]>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: SearchSettings = defaultSearchSettings,
  ) {
    this.catalog = new FieldCatalogCache(engine, clock);
  }

  /** `start_query`: checks and plans the query (errors answer at once), then runs it in the background. */
  async start(tenant: string, body: AdhocQueryBody): Promise<string> {
    this.sweep();
    const run = await this.launch(checkAdhocQuery(tenant, body));
    const entry: Entry = { tenant, run, finishedAtMs: null };
    this.entries.set(run.id, entry);
    void run.done.then(() => {
      entry.finishedAtMs = this.clock.nowMs();
    });
    return run.id;
  }

  /**
   * `query_progress`: what the query holds now. Query ids are unique over all tenants, so the
   * caller says which owners it may see (a key may hold several tenants); a query of any other
   * tenant, an expired or an unknown id: 404.
   */
  progress(qrId: string, maySee: (tenant: string) => boolean): QuerySnapshot {
    this.sweep();
    const entry = this.entries.get(qrId);
    if (!entry || !maySee(entry.tenant)) throw new NotFoundError(`no query ${describeQueryId(qrId)}`);
    const snapshot = entry.run.snapshot();
    if (snapshot.status === 'failed' && snapshot.error) throw snapshot.error;
    return snapshot;
  }

  /** `cancel_query`: stops the query if the caller may see its tenant; always succeeds (idempotent). */
  cancel(qrId: string, maySee: (tenant: string) => boolean): void {
    const entry = this.entries.get(qrId);
    if (entry && maySee(entry.tenant)) entry.run.cancel();
  }

  /** `blocking_query`: runs to completion, or is cancelled and answers 504 past the time limit. */
  async blocking(tenant: string, body: AdhocQueryBody, signal?: AbortSignal): Promise<QuerySnapshot> {
    return this.runToEnd(checkAdhocQuery(tenant, body), signal);
  }

  /**
   * Parses, analyzes and compiles without running: the tree, the SQL and each predicate's index.
   * The statement is the one over the whole range, as an aggregation runs it: with parts of words
   * looked up, as every slice over 20,000 events also does (docs/search.md, step 3).
   */
  async explain(tenant: string, text: string, range: { startNs: bigint; endNs: bigint }): Promise<QueryExplanation> {
    const plan = await this.plan(tenant, text, clampToEventSpan(range), { useFieldTypes: true, partialWords: true });
    return { plan, predicates: plan.compiled.plans };
  }

  /** Runs a query to completion with CLI-style options (same execution and limits as the API). */
  async run(tenant: string, text: string, range: TimeRange, options: RunOptions): Promise<QueryResult> {
    const request: AdhocQuery = {
      tenant,
      text,
      ...range,
      maxRows: options.maxRows,
      maxBytes: options.maxBytes ?? adhocLimits.maxMaxBytes,
      scanBackToFront: (options.order ?? 'desc') === 'desc',
    };
    const snapshot = await this.runToEnd(request, options.signal);
    return { kind: snapshot.kind, columns: snapshot.columns, rows: snapshot.rows, bytesScanned: snapshot.bytesScanned, truncated: snapshot.truncated };
  }

  /**
   * Runs a query over a short range as one statement: events earliest first up to `maxRows`, or
   * the whole aggregation. Rule tests use it: for a minute of events the histogram and time
   * slices of ad hoc searches cost more than they save. It bypasses the ad hoc concurrency
   * limits; the caller bounds its own (rule test runs are). The engine counts it as the
   * tenant's ad hoc work.
   */
  async runOnce(tenant: string, text: string, range: TimeRange, maxRows: number, signal?: AbortSignal): Promise<QueryResult> {
    const query = await this.prepareWith(tenant, text, range, maxRows, { kind: 'adhoc', tenant });
    return runShortRange(this.engine, query, signal);
  }

  /**
   * Plans a detection window's query without running it: its `batchKey` says which others it can
   * share a statement with. The engine runs it within the share of sessions ad hoc queries
   * cannot take (the rule scheduler bounds how many run at once).
   */
  async prepareShortRange(tenant: string, text: string, range: TimeRange, maxRows: number): Promise<ShortRangeQuery> {
    return this.prepareWith(tenant, text, range, maxRows, { kind: 'detection' });
  }

  private async prepareWith(tenant: string, text: string, range: TimeRange, maxRows: number, workload: Workload): Promise<ShortRangeQuery> {
    const clamped = clampToEventSpan(range);
    return prepareShortRange((output) => this.plan(tenant, text, clamped, output), tenant, clamped, maxRows, workload);
  }

  /** Runs a prepared query alone, as `runOnce` does. */
  runShortRange(query: ShortRangeQuery, signal?: AbortSignal): Promise<QueryResult> {
    return runShortRange(this.engine, query, signal);
  }

  /** Runs prepared queries of one batch key in one statement; each result (or error) at its query's position. */
  runShortRangeBatch(queries: readonly ShortRangeQuery[], signal?: AbortSignal): Promise<(QueryResult | Error)[]> {
    return runShortRangeBatch(this.engine, queries, signal);
  }

  /** Runs a checked query to completion (the CLI's path; the same limits apply). */
  async runToEnd(request: AdhocQuery, signal?: AbortSignal): Promise<QuerySnapshot> {
    const run = await this.launch(request);
    const onAbort = (): void => run.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.settings.blockingTimeoutS * 1000);
    });
    try {
      const outcome = await Promise.race([run.done.then(() => 'done' as const), timedOut]);
      if (outcome === 'timeout') {
        run.cancel();
        throw new EngineError(`the query did not finish within ${this.settings.blockingTimeoutS} s; narrow the time range or the query, or use start_query`, {
          code: ErrorCodes.engineTimeout,
        });
      }
      const snapshot = run.snapshot();
      if (snapshot.status === 'failed' && snapshot.error) throw snapshot.error;
      return snapshot;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Queries still running (for metrics and shutdown). */
  get runningCount(): number {
    return this.running.size;
  }

  /** Cancels every running query (server shutdown). */
  cancelAll(): void {
    for (const run of this.running) run.cancel();
  }

  private async launch(asked: AdhocQuery): Promise<QueryRun> {
    // Every ad hoc run starts here (start_query, blocking_query, vigil query): its range is
    // clamped to the span events can have once, for planning and for the run's slices alike.
    const request: AdhocQuery = { ...asked, ...clampToEventSpan(asked) };
    this.admit(request.tenant);
    const plan = await this.plan(request.tenant, request.text, request, { useFieldTypes: true });
    this.admit(request.tenant); // planning awaited: others may have started meanwhile
    const { selectiveReadRows } = this.settings;
    const run = new QueryRun(request, { engine: this.engine, logger: this.logger, ...(selectiveReadRows === undefined ? {} : { selectiveReadRows }) }, plan);
    this.running.add(run);
    void run.done.then(() => this.running.delete(run));
    return run;
  }

  /**
   * Called before events are written for the tenant; call the returned function once the write
   * has ended, however it ended. Meanwhile aggregations do not trust the field catalog's types,
   * and afterwards the tenant's queries read the catalog anew.
   */
  writingEvents(tenant: string): () => void {
    return this.catalog.writing(tenant);
  }

  /** Plans a query with the tenant's indexes and (briefly cached) field catalog. */
  private async plan(tenant: string, text: string, range: TimeRange, options: PlanOptions = {}): Promise<QueryPlan> {
    const indexes = await this.indexesOf(tenant);
    return planQuery({ tenant, text, indexes, startNs: range.startNs, endNs: range.endNs, ...options }, this.catalog);
  }

  private admit(tenant: string): void {
    if (this.running.size >= this.settings.maxConcurrent) {
      throw new TooManyRequestsError(`${this.settings.maxConcurrent} queries are running; retry shortly`, 1);
    }
    let mine = 0;
    for (const run of this.running) if (run.request.tenant === tenant) mine++;
    if (mine >= this.settings.maxConcurrentPerTenant) {
      throw new TooManyRequestsError(`tenant ${tenant} has ${mine} queries running (the limit); retry shortly`, 1);
    }
  }

  private sweep(): void {
    const cutoff = this.clock.nowMs() - this.settings.resultTtlS * 1000;
    for (const [id, entry] of this.entries) {
      if (entry.finishedAtMs !== null && entry.finishedAtMs < cutoff) this.entries.delete(id);
    }
  }
}

// A query id as an error shows it: ids are UUIDs, so anything much longer is cut, not echoed.
function describeQueryId(qrId: string): string {
  return qrId.length <= 64 ? JSON.stringify(qrId) : `${JSON.stringify(qrId.slice(0, 64))}… (${qrId.length} characters)`;
}
