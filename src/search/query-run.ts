/**
 * One ad hoc query executing (ARCHITECTURE.md section 5). Event searches run in time slices,
 * latest first by default, each slice one statement with `LIMIT` = rows still wanted, and stop
 * at `max_rows` or when the table reaches `max_bytes`; rows found so far are visible while it
 * runs. Aggregations (and `head`/`tail`) run over the whole range as one statement, watched for
 * progress, and keep rows only while they fit in `max_bytes`. Cancelling aborts the statement
 * in the engine and starts no further slice.
 */
import { EngineError, ErrorCodes, type Logger } from '../core/index.js';
import { BackgroundRun } from './background-run.js';
import type { QuerySnapshot } from './query-snapshot.js';

export type { QuerySnapshot, QueryStatus } from './query-snapshot.js';

/** A search reading at most this many rows after the indexes (32 granules) runs as one statement. */
export const selectiveReadRows = 32 * 8192;
import { adhocWorkload, type Engine, type Workload } from '../engine/index.js';
import { compileQuery, compileTimeHistogram, isSliceable, narrowsByTextIndex, type CompiledOutput } from '../query/index.js';
import type { AdhocQuery } from './adhoc-request.js';
import { decodeBounded } from './decode-bounded.js';
import type { DecodedRow } from './decode-rows.js';
import type { QueryPlan } from './plan-query.js';
import { readCompiled } from './read-events.js';
import { resultColumns } from './result-columns.js';
import { TableBudget } from './table-budget.js';
import { sliceStatement, type SliceStatement } from './slice-statement.js';
import {
  bucketWidthNs,
  expectedMatches,
  firstSliceRows,
  firstStatementRows,
  nextSliceRows,
  SliceWalker,
  sliceStatementRows,
  type CountedSlice,
  type TimeSlice,
} from './time-slices.js';

export interface QueryRunDeps {
  readonly engine: Engine;
  readonly logger: Logger;
  /** How often a whole-range statement's progress is read (ms). */
  readonly progressIntervalMs?: number;
  /** Rows a search may read after the indexes to run as one statement (default `selectiveReadRows`). */
  readonly selectiveReadRows?: number;
}

export class QueryRun extends BackgroundRun {
  private readonly kind: 'events' | 'table';
  /** What the statements return: events, or a table (aggregations, events shaped by `table`). */
  private readonly output: CompiledOutput;
  private columns: readonly string[] = [];
  private truncated = false;
  private readonly budget: TableBudget;

  constructor(
    readonly request: AdhocQuery,
    private readonly deps: QueryRunDeps,
    plan: QueryPlan,
  ) {
    super(deps.logger, 'running query');
    this.budget = new TableBudget(request.maxBytes);
    this.kind = resultKind(plan);
    this.output = plan.compiled.output;
    this.start(() => this.execute(plan));
  }

  get tenant(): string {
    return this.request.tenant;
  }

  snapshot(): QuerySnapshot {
    return { status: this.status, kind: this.kind, columns: this.columns, rows: this.rows, bytesScanned: this.bytesScanned, truncated: this.truncated, error: this.error };
  }

  /** Every statement of the run is its tenant's ad hoc work: the engine shares sessions by it. */
  private get workload(): Workload {
    return adhocWorkload(this.request.tenant);
  }

  private async execute(plan: QueryPlan): Promise<void> {
    if (isSliceable(plan.query)) await this.runSlices(plan);
    else await this.runWhole(plan);
  }

  private async runSlices(plan: QueryPlan): Promise<void> {
    if (narrowsByTextIndex(plan.analyzed) && (await this.runSelective(plan))) return;
    const { request } = this;
    const histogram = compileTimeHistogram(plan.analyzed, request, bucketWidthNs(request.startNs, request.endNs));
    const buckets = await this.deps.engine.query<{ bucket: number; rows: string }>(histogram, { signal: this.abort.signal, workload: this.workload });
    this.bytesScanned += buckets.stats.bytesRead;
    const counts = buckets.rows.map((b) => ({ index: Number(b.bucket), rows: Number(b.rows) }));
    const slices = new SliceWalker(request.startNs, request.endNs, counts, request.scanBackToFront);
    let target = firstSliceRows;
    let scanned = 0;
    for (let slice = slices.next(target); slice !== null; slice = slices.next(target)) {
      const expected = expectedMatches(slice.rows, scanned, this.rows.length);
      if (this.cancelled || (await this.runSlice(plan, slice, expected))) return;
      scanned += slice.rows;
      target = nextSliceRows(target, { scannedRows: scanned, foundRows: this.rows.length, wantedRows: request.maxRows - this.rows.length, remainingRows: slices.remainingRows });
    }
  }

  /**
   * Reads one slice; true when the page is full. A statement returns at most one row more than
   * `sliceStatementRows` (`firstStatementRows` until the first rows are in, so that they
   * show soon): the histogram only sees minutes, and one minute can hold far more
   * events than a slice should (events stamped with their ingest time), so one answer could
   * hold everything and show nothing until it was decoded. When a statement fills, the rows of
   * its last timestamp are left for the next statement, which starts at that timestamp.
   * The row beyond the cap tells whether the page ends inside a run of equal timestamps, so a
   * page that fits under the cap (the default 1,000 rows) needs no second statement to find out.
   * `expected`: the matches the slice should hold at the density found so far (null: unknown).
   */
  private async runSlice(plan: QueryPlan, slice: CountedSlice, expected: number | null): Promise<boolean> {
    const backward = this.request.scanBackToFront;
    let { startNs, endNs } = slice;
    for (;;) {
      const wanted = this.request.maxRows - this.rows.length;
      const limit = Math.min(wanted, this.rows.length === 0 ? firstStatementRows : sliceStatementRows) + 1;
      const decoded = await this.readEvents(plan, { startNs, endNs }, limit, sliceStatement(slice.rows, expected, limit));
      if (this.cancelled) return true;
      if (decoded.length < limit || limit === wanted + 1) return this.addEventRows(decoded, wanted);
      const boundary = decoded.at(-1)?.rowId?.t;
      const before = decoded.filter((row) => row.rowId?.t !== boundary);
      // One timestamp fills a whole statement: read the rest of the slice at once instead.
      if (boundary === undefined || before.length === 0) return this.addEventRows(await this.readEvents(plan, { startNs, endNs }, wanted + 1), wanted);
      if (this.addEventRows(before, wanted)) return true;
      if (backward) endNs = BigInt(boundary) + 1n;
      else startNs = BigInt(boundary);
    }
  }

  /**
   * A search whose text-index tokens leave few granules is one quick statement over the whole
   * range, where slices cost a statement each (a rare token over 5 M events: one statement of
   * ~25 ms against a histogram and five slices of 10-15 ms). It is tried first with the engine
   * told not to read more than `selectiveReadRows` rows: a search that is not selective is
   * stopped as soon as it has read past them (7-9 ms for a common word over 5 M events), and
   * goes on in slices (false).
   */
  private async runSelective(plan: QueryPlan): Promise<boolean> {
    const { request } = this;
    let decoded: DecodedRow[];
    try {
      const limits = { max_rows_to_read: this.deps.selectiveReadRows ?? selectiveReadRows, read_overflow_mode: 'throw' };
      decoded = await this.readEvents(plan, { startNs: request.startNs, endNs: request.endNs }, request.maxRows + 1, { settings: limits });
    } catch (error) {
      if (error instanceof EngineError && error.code === ErrorCodes.engineReadLimit) return false;
      throw error;
    }
    if (!this.cancelled) this.addEventRows(decoded, request.maxRows);
    return true;
  }

  /** One statement over part of the range: up to `limit` events in scan order, decoded within the budget. */
  private async readEvents(plan: QueryPlan, range: TimeSlice, limit: number, statement: Partial<SliceStatement> = {}): Promise<DecodedRow[]> {
    const order = this.request.scanBackToFront ? 'desc' : 'asc';
    const compiled = compileQuery(plan.analyzed, {
      tenant: this.request.tenant,
      ...range,
      ...rowBounds(this.request),
      order,
      limit,
      partialWords: statement.partialWords === true,
    });
    const options = { settings: { ...compiled.settings, ...statement.settings }, signal: this.abort.signal, workload: this.workload };
    const result = await readCompiled(this.deps.engine, compiled, options);
    this.bytesScanned += result.stats.bytesRead;
    const bounds = { maxRows: limit, maxBytes: this.budget.remaining };
    const decoded = await decodeBounded(compiled.output, result.rows, plan.indexNames, bounds, this.abort.signal);
    return decoded;
  }

  /**
   * Adds a slice's rows (in scan order) up to `wanted` and the byte budget; true when the page
   * is full. A full page never ends inside a run of rows with the same timestamp, so a client
   * paging on with the last row's time as the next bound neither repeats nor misses a row
   * (unless one timestamp alone holds more rows than a page).
   */
  private addEventRows(decoded: readonly DecodedRow[], wanted: number): boolean {
    let taken: DecodedRow[] = [];
    let full = decoded.length > wanted;
    for (const row of decoded.slice(0, wanted)) {
      if (!this.budget.admit(row)) {
        this.truncated = true;
        full = true;
        break;
      }
      taken.push(row);
    }
    const next = decoded[taken.length];
    const boundary = taken.at(-1)?.rowId?.t;
    if (full && next !== undefined && boundary !== undefined && next.rowId?.t === boundary) {
      const whole = taken.filter((row) => row.rowId?.t !== boundary);
      if (whole.length + this.rows.length > 0) {
        for (const row of taken.slice(whole.length)) this.budget.release(row);
        taken = whole;
      }
    }
    this.rows = this.rows.concat(taken);
    this.columns = resultColumns(this.output, this.rows);
    return full || this.rows.length >= this.request.maxRows;
  }

  /**
   * An aggregation (or `head`/`tail`) over the whole range as one statement. When the range
   * holds every event time written to the scope, the statement leaves the time bounds out: over
   * whole indexes they cost reading and comparing each event's time (a quarter to a third of a
   * groupbycount over 5 M events). The span is read again after the statement: an insert
   * outside the range that the statement may have seen widened it before writing, and the
   * statement then runs again, bounded.
   */
  private async runWhole(plan: QueryPlan): Promise<void> {
    const { request } = this;
    const order = request.scanBackToFront ? 'desc' : 'asc';
    const scope = plan.analyzed.scope.map((index) => index.id);
    const tag = `vigil-q-${this.id}`;
    const watch = setInterval(() => void this.readProgress(tag), this.deps.progressIntervalMs ?? 250);
    try {
      const read = async (timeBounded: boolean) => {
        const compiled = compileQuery(plan.analyzed, {
          tenant: request.tenant,
          startNs: request.startNs,
          endNs: request.endNs,
          ...rowBounds(request),
          order,
          timeBounded,
          partialWords: true,
        });
        const result = await readCompiled(this.deps.engine, compiled, { tag, settings: compiled.settings, signal: this.abort.signal, workload: this.workload });
        this.bytesScanned = Math.max(this.bytesScanned, result.stats.bytesRead);
        return { compiled, result };
      };
      const unbounded = await this.rangeHoldsEveryEvent(scope);
      let { compiled, result } = await read(!unbounded);
      if (unbounded && !this.cancelled && !(await this.rangeHoldsEveryEvent(scope))) ({ compiled, result } = await read(true));
      if (this.cancelled) return;
      // Aggregated tables ignore max_rows (docs/interface.md 2.1); event results obey it.
      const bounds = { maxRows: this.kind === 'table' ? Number.POSITIVE_INFINITY : request.maxRows, maxBytes: this.budget.remaining };
      const decoded = await decodeBounded(compiled.output, result.rows, plan.indexNames, bounds, this.abort.signal);
      if (this.cancelled) return;
      const kept: DecodedRow[] = [];
      for (const row of decoded) {
        if (!this.budget.admit(row)) {
          this.truncated = true;
          break;
        }
        kept.push(row);
      }
      this.rows = kept;
      this.columns = resultColumns(compiled.output, kept);
    } finally {
      clearInterval(watch);
    }
  }

  /** Whether the request's range holds the time of every event these indexes hold (their written time span). */
  private async rangeHoldsEveryEvent(indexIds: readonly string[]): Promise<boolean> {
    const span = await this.deps.engine.writtenTimeSpan(this.request.tenant, indexIds);
    return span === null || (this.request.startNs <= span.minTsNs && span.maxTsNs < this.request.endNs);
  }

  private async readProgress(tag: string): Promise<void> {
    try {
      const running = await this.deps.engine.runningQuery(tag);
      if (running) this.bytesScanned = Math.max(this.bytesScanned, running.bytesRead);
    } catch (error) {
      this.deps.logger.debug({ err: error }, 'reading query progress failed');
    }
  }
}

/** The cursor bounds of a request (`start_leid`, `end_leid`) as compile options. */
function rowBounds(request: AdhocQuery): { after?: AdhocQuery['after']; before?: AdhocQuery['before'] } {
  return { ...(request.after ? { after: request.after } : {}), ...(request.before ? { before: request.before } : {}) };
}

/** Aggregated tables have no events behind their rows; everything else is events in time order. */
export function resultKind(plan: QueryPlan): 'events' | 'table' {
  const output = plan.compiled.output;
  return output.kind === 'table' && output.identity.kind !== 'event' ? 'table' : 'events';
}
