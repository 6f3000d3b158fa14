/**
 * Ad hoc queries for the API and the CLI (docs/interface.md 4.1): start, progress, cancel and blocking
 * queries, histograms, field values and explain, with the concurrency limits and the record
 * lifetime an operator configures. Rule windows are the other side of search (`windows`,
 * window-queries.ts). Query
 * records live in memory, and also in the shared store when several servers share one
 * (SharedQueries), so any server answers for any query; the tenant's indexes come from the caller.
 */
import { EngineError, ErrorCodes, NotFoundError, clampToEventSpan, type Clock, type Logger } from '../core/index.js';
import type { Engine } from '../engine/index.js';
import type { IndexInfo, LookupTableInfo, PredicatePlan } from '../query/index.js';
import { adhocLimits, checkAdhocQuery, checkRange, type AdhocQuery, type AdhocQueryBody } from './adhoc-request.js';
import type { QueryPlan } from './plan-query.js';
import { QueryPlanner } from './query-planner.js';
import { QueryRun, type QuerySnapshot } from './query-run.js';
import { SharedQueries, type SharedQueryRecords } from './shared-queries.js';
import type { QueryResult, TimeRange } from './query-result.js';
import { fieldValueLimits, readFieldValues, type FieldValues } from './field-values.js';
import { checkMaxBuckets, histogramLimits, histogramRange, type BucketPlan } from './histogram-buckets.js';
import { HistogramRun } from './histogram-run.js';
import { RunAdmission } from './run-admission.js';
import type { BackgroundRun } from './background-run.js';
import { WindowQueries } from './window-queries.js';

export type { QueryResult, TimeRange } from './query-result.js';

export interface SearchSettings {
  /** A blocking query that runs longer is cancelled and answers 504 (docs/interface.md 8: 300 s). */
  readonly blockingTimeoutS: number;
  /** How long a finished query's record answers `query_progress` (default 10 minutes). */
  readonly resultTtlS: number;
  /** Queries running at once, over all tenants, and per tenant; past them: 429. */
  readonly maxConcurrent: number;
  readonly maxConcurrentPerTenant: number;
  /** An event search whose text index leaves at most this many rows to read runs as one statement, not in slices. */
  readonly selectiveReadRows?: number;
}

/** What the search service may be told, or ask, beyond its engine and indexes. */
export interface SearchHooks {
  /** Told the bytes each ad hoc run scanned once it ends, however it ends (query capacity). */
  readonly onRunDone?: (tenant: string, bytesScanned: number) => void;
  /** The tenant's lookup tables, for queries with a `lookup` command; without it they cannot name any. */
  readonly lookupTablesOf?: (tenant: string) => Promise<readonly LookupTableInfo[]>;
}

export const defaultSearchSettings: SearchSettings = { blockingTimeoutS: 300, resultTtlS: 600, maxConcurrent: 8, maxConcurrentPerTenant: 4 };

interface Entry {
  readonly tenant: string;
  readonly run: BackgroundRun;
  finishedAtMs: number | null;
}

/** The body of `start_histogram`. */
export interface HistogramBody {
  readonly query: string;
  readonly start_time: string;
  readonly end_time: string;
  readonly max_buckets?: number;
}

/** What `start_histogram` answers: the run and how it cuts its range. */
export interface StartedHistogram {
  readonly qrId: string;
  readonly buckets: BucketPlan;
  /** The range counted: clamped to the events' possible times and narrowed to the scope's events. */
  readonly range: TimeRange;
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

export class SearchService {
  private readonly entries = new Map<string, Entry>();
  private readonly admission: RunAdmission;
  private readonly planner: QueryPlanner;
  private readonly shared: SharedQueries | null;
  /** The window side: rule windows, rule tests and previews, planned with the same catalog. */
  readonly windows: WindowQueries;

  constructor(
    private readonly engine: Engine,
    /** The tenant's live indexes, system ones included: read for every query, so a new index is searchable at once. */
    indexesOf: (tenant: string) => Promise<readonly IndexInfo[]>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: SearchSettings = defaultSearchSettings,
    private readonly hooks: SearchHooks = {},
    /** The shared store's query records, when other servers share it. */
    sharedRecords: SharedQueryRecords | null = null,
  ) {
    this.planner = new QueryPlanner(engine, indexesOf, clock, hooks.lookupTablesOf);
    this.windows = new WindowQueries(engine, this.planner);
    this.admission = new RunAdmission(settings);
    this.shared = sharedRecords && new SharedQueries(sharedRecords, clock, logger, { resultTtlMs: settings.resultTtlS * 1000, pollIntervalMs: 250 });
  }

  /** `start_query`: checks and plans the query (errors answer at once), then runs it in the background. */
  async start(tenant: string, body: AdhocQueryBody): Promise<string> {
    this.sweep();
    const run = await this.launch(checkAdhocQuery(tenant, body, this.nowNs()));
    this.record(run);
    if (this.shared) {
      try {
        await this.shared.track(run, tenant);
      } catch (error) {
        // Other servers could not answer for it: better no query than one only this server knows.
        run.cancel();
        throw error;
      }
    }
    return run.id;
  }

  /**
   * `start_histogram`: event counts per bucket for a query and range, run in the background like
   * `start_query` (the same progress, cancel and limits). The bucket size is chosen from the
   * range once it is narrowed to the span of the events in the query's scope.
   */
  async startHistogram(tenant: string, body: HistogramBody): Promise<StartedHistogram> {
    this.sweep();
    const asked = checkRange(body.start_time, body.end_time);
    const maxBuckets = checkMaxBuckets(body.max_buckets ?? histogramLimits.defaultMaxBuckets);
    const clamped = clampToEventSpan(asked);
    this.admission.admit(tenant);
    const plan = await this.planner.plan(tenant, body.query, clamped, { useFieldTypes: true });
    const span = await this.engine.writtenTimeSpan(
      tenant,
      plan.analyzed.scope.map((index) => index.id),
    );
    const { range, buckets } = histogramRange(asked, span, maxBuckets);
    this.admission.admit(tenant); // planning awaited: others may have started meanwhile
    const run = new HistogramRun({ tenant, range, buckets }, { engine: this.engine, logger: this.logger }, plan);
    this.track(run);
    return { qrId: this.record(run), buckets, range };
  }

  /**
   * The most frequent values of a field among a query's events, with how many hold it
   * (field-values.ts): two ad hoc queries, under the same limits as `blocking_query`.
   */
  async fieldValues(tenant: string, body: { query: string; field: string; start_time: string; end_time: string; limit?: number }, signal?: AbortSignal): Promise<FieldValues> {
    const range = checkRange(body.start_time, body.end_time);
    // The query alone first, so that its errors point into its own text.
    await this.planner.plan(tenant, body.query, clampToEventSpan(range));
    const request = { text: body.query, field: body.field, range, limit: body.limit ?? fieldValueLimits.defaultLimit };
    return readFieldValues(request, (text, r) => this.run(tenant, text, r, { maxRows: request.limit, ...(signal ? { signal } : {}) }));
  }

  /**
   * Runs `work` counted against the tenant's concurrency limits and under the blocking time
   * limit (504 past it); its signal aborts when the limit passes, when `signal` aborts (a client
   * hung up) or at shutdown (`close`).
   */
  blockingWork<T>(tenant: string, work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.admission.hold(tenant, work, signal);
  }

  /**
   * `query_progress`: what the query holds now. Query ids are unique over all tenants, so the
   * caller says which owners it may see (a key may hold several tenants); a query of any other
   * tenant, an expired or an unknown id: 404. A query another server runs is read from the
   * shared store.
   */
  async progress(qrId: string, maySee: (tenant: string) => boolean): Promise<QuerySnapshot> {
    this.sweep();
    const entry = this.entries.get(qrId);
    const found = entry ? { tenant: entry.tenant, snapshot: entry.run.snapshot() } : await this.shared?.read(qrId);
    if (!found || !maySee(found.tenant)) throw new NotFoundError(`no query ${describeQueryId(qrId)}`);
    const { snapshot } = found;
    if (snapshot.status === 'failed' && snapshot.error) throw snapshot.error;
    return snapshot;
  }

  /**
   * `cancel_query`: stops the query if the caller may see its tenant; always succeeds
   * (idempotent). A query another server runs is cancelled by that server, which polls the
   * shared store for such requests.
   */
  async cancel(qrId: string, maySee: (tenant: string) => boolean): Promise<void> {
    const entry = this.entries.get(qrId);
    if (entry) {
      if (maySee(entry.tenant)) entry.run.cancel();
      return;
    }
    const found = await this.shared?.read(qrId);
    if (found && maySee(found.tenant) && found.snapshot.status === 'running') await this.shared?.requestCancel(qrId);
  }

  /** `blocking_query`: runs to completion, or is cancelled and answers 504 past the time limit. */
  async blocking(tenant: string, body: AdhocQueryBody, signal?: AbortSignal): Promise<QuerySnapshot> {
    return this.runToEnd(checkAdhocQuery(tenant, body, this.nowNs()), signal);
  }

  /**
   * Parses, analyzes and compiles without running: the tree, the SQL and each predicate's index.
   * The statement is the one over the whole range, as an aggregation runs it: with parts of words
   * looked up, as every slice over 20,000 events also does (docs/search.md, step 3).
   */
  async explain(tenant: string, text: string, range: { startNs: bigint; endNs: bigint }): Promise<QueryExplanation> {
    const plan = await this.planner.plan(tenant, text, clampToEventSpan(range), { useFieldTypes: true, partialWords: true });
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
    return this.admission.size;
  }

  /** Cancels every running query, waits for the started ones to stop and stops updating shared records (server shutdown). */
  async close(): Promise<void> {
    this.admission.cancelAll();
    await Promise.all([...this.entries.values()].filter((entry) => entry.finishedAtMs === null).map((entry) => entry.run.done));
    await this.shared?.close();
  }

  /** Keeps a started run's record for `query_progress` until it has been finished for the TTL. */
  private record(run: BackgroundRun): string {
    const entry: Entry = { tenant: run.tenant, run, finishedAtMs: null };
    this.entries.set(run.id, entry);
    void run.done.then(() => {
      entry.finishedAtMs = this.clock.nowMs();
    });
    return run.id;
  }

  /** Counts a started run against the limits, and its scanned bytes for the tenant once it ends (query capacity). */
  private track(run: BackgroundRun): void {
    this.admission.track(run);
    void run.done.then(() => this.hooks.onRunDone?.(run.tenant, run.snapshot().bytesScanned));
  }

  private async launch(asked: AdhocQuery): Promise<QueryRun> {
    // Every ad hoc run starts here (start_query, blocking_query, vigil query): its range is
    // clamped to the span events can have once, for planning and for the run's slices alike.
    const request: AdhocQuery = { ...asked, ...clampToEventSpan(asked) };
    this.admission.admit(request.tenant);
    const plan = await this.planner.plan(request.tenant, request.text, request, { useFieldTypes: true });
    this.admission.admit(request.tenant); // planning awaited: others may have started meanwhile
    const { selectiveReadRows } = this.settings;
    const run = new QueryRun(request, { engine: this.engine, logger: this.logger, ...(selectiveReadRows === undefined ? {} : { selectiveReadRows }) }, plan);
    this.track(run);
    return run;
  }

  /**
   * Called before events are written for the tenant; call the returned function once the write
   * has ended, however it ended. Meanwhile aggregations do not trust the field catalog's types,
   * and afterwards the tenant's queries read the catalog anew.
   */
  writingEvents(tenant: string): () => void {
    return this.planner.writingEvents(tenant);
  }

  private nowNs(): bigint {
    return BigInt(this.clock.nowMs()) * 1_000_000n;
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
