/**
 * A rule's query over many windows (rule preview), each result exactly what the scheduler's
 * window query (`runOnce`: events earliest first up to `maxRows`, or the whole aggregation)
 * returns, without one statement per window where that can be avoided:
 *
 * - A query whose rows are events (a filter, optionally with `where`, `eval`, `rename`, `table`)
 *   is counted per minute in one statement. A window whose count is zero gets an empty result; a
 *   window holding more than `maxRows` rows runs alone, as the scheduler runs it; the others
 *   are read in chunks of about `chunkRows` events, in time order, each event shared out to
 *   every window that holds it.
 * - Any other query (aggregations, `head`, `tail`) counts its filter's events per minute. A
 *   window whose filter matches something runs alone; the windows whose filter matches nothing
 *   all get the result of one statement over the first of them (`count` gives 0 there, for
 *   instance), since an aggregation of no events does not depend on the window.
 *
 * Windows are whole minutes (their ends are multiples of the run frequency, their length a
 * multiple of 60 s), so per-minute counts are exact per window.
 */
import type { Engine } from '../engine/index.js';
import { compileQuery, compileRowHistogram, isSliceable } from '../query/index.js';
import { decodeRows, type DecodedRow } from './decode-rows.js';
import type { QueryPlan } from './plan-query.js';
import { readCompiled } from './read-events.js';
import { resultColumns } from './result-columns.js';
import type { TimeRange } from './query-result.js';

/** A window `[startMs, endMs)`, both whole minutes. */
export interface MinuteWindow {
  readonly startMs: number;
  readonly endMs: number;
}

export interface WindowRows {
  readonly columns: readonly string[];
  readonly rows: readonly DecodedRow[];
}

export interface RuleWindowsDeps {
  readonly engine: Engine;
  readonly tenant: string;
  /** The query planned over the windows' whole span as a window query is (order asc, limit `maxRows`, no field types). */
  readonly plan: QueryPlan;
  readonly maxRows: number;
  readonly signal: AbortSignal;
  /** Events one chunk statement reads, about (default 20,000). */
  readonly chunkRows?: number;
  /** Counts the statements run (tests and benchmarks). */
  readonly onStatement?: (kind: 'count' | 'chunk' | 'window') => void;
}

const minuteMs = 60_000;
const msNs = 1_000_000n;
/** A chunk over at least this many events also looks up parts of words (docs/search.md). */
const partialWordsRows = 20_000;

/** The windows' results in the order given (windows sorted by start, all the same length). */
export async function* ruleWindowResults(deps: RuleWindowsDeps, windows: readonly MinuteWindow[]): AsyncGenerator<{ window: MinuteWindow; rows: WindowRows }> {
  const first = windows[0];
  const last = windows.at(-1);
  if (first === undefined || last === undefined) return;
  for (const w of windows) {
    if (w.startMs % minuteMs !== 0 || w.endMs % minuteMs !== 0) throw new Error('rule windows are whole minutes');
  }
  const span = { startMs: first.startMs, endMs: last.endMs };
  const counts = await minuteCounts(deps, span);
  const countOf = (w: MinuteWindow): number => counts.between(w.startMs, w.endMs);
  const perEvent = isSliceable(deps.plan.query);
  const reader = perEvent ? new ChunkReader(deps, counts, windows.filter((w) => countOf(w) > 0 && countOf(w) <= deps.maxRows)) : null;
  let empty: WindowRows | null = null;
  for (const window of windows) {
    deps.signal.throwIfAborted();
    const n = countOf(window);
    let rows: WindowRows;
    if (perEvent && n === 0) rows = { columns: resultColumns(deps.plan.compiled.output, []), rows: [] };
    else if (reader !== null && n <= deps.maxRows) {
      await reader.readThrough(window);
      rows = reader.rowsOf(window);
    }
    else if (n > 0) rows = await runWindow(deps, window);
    else rows = empty ??= await runWindow(deps, window);
    yield { window, rows };
  }
}

/** One window as the scheduler runs it: one statement, events earliest first up to `maxRows`. */
async function runWindow(deps: RuleWindowsDeps, window: MinuteWindow): Promise<WindowRows> {
  deps.onStatement?.('window');
  const compiled = compileQuery(deps.plan.analyzed, { tenant: deps.tenant, ...toRange(window), order: 'asc', limit: deps.maxRows });
  const result = await readCompiled(deps.engine, compiled, { settings: compiled.settings, signal: deps.signal });
  const rows = decodeRows(compiled.output, result.rows, deps.plan.indexNames);
  return { columns: resultColumns(compiled.output, rows), rows };
}

/** Rows per minute of the span (the query's own rows when they are events, else its filter's events). */
class MinuteCounts {
  private readonly prefix: number[];

  constructor(
    private readonly startMs: number,
    minutes: number,
    cells: readonly { readonly bucket: string; readonly rows: number }[],
  ) {
    const perMinute = new Array<number>(minutes).fill(0);
    for (const cell of cells) {
      const i = Number(cell.bucket);
      if (i >= 0 && i < minutes) perMinute[i] = (perMinute[i] ?? 0) + Number(cell.rows);
    }
    this.prefix = [0];
    for (const n of perMinute) this.prefix.push((this.prefix.at(-1) as number) + n);
  }

  /** Rows in `[fromMs, toMs)` (whole minutes within the span). */
  between(fromMs: number, toMs: number): number {
    const at = (ms: number): number => this.prefix[Math.min(Math.max((ms - this.startMs) / minuteMs, 0), this.prefix.length - 1)] as number;
    return at(toMs) - at(fromMs);
  }

  /** Where a chunk starting at `fromMs` should end: after about `rows` rows, at least at `atLeastMs`, at most at `limitMs`. */
  chunkEnd(fromMs: number, atLeastMs: number, limitMs: number, rows: number): number {
    let end = atLeastMs;
    while (end < limitMs && this.between(fromMs, end + minuteMs) <= rows) end += minuteMs;
    return end;
  }
}

async function minuteCounts(deps: RuleWindowsDeps, span: MinuteWindow): Promise<MinuteCounts> {
  deps.onStatement?.('count');
  const range = toRange(span);
  const compiled = compileRowHistogram(deps.plan.analyzed, { tenant: deps.tenant, ...range, firstBucketNs: range.startNs, bucketNs: BigInt(minuteMs) * msNs, partialWords: true });
  const result = await deps.engine.query<{ bucket: string; rows: number }>(compiled.sql, { settings: compiled.settings, signal: deps.signal });
  return new MinuteCounts(span.startMs, (span.endMs - span.startMs) / minuteMs, result.rows);
}

/**
 * Reads the events of the windows it serves in chunks, in time order, and keeps those that a
 * window still to come may need. Every minute of a served window is read, and only such minutes.
 */
class ChunkReader {
  /** Rows read and still needed, in time order, with their times (ns) beside them for searching. */
  private rows: DecodedRow[] = [];
  private times: bigint[] = [];
  /** Events before this time have been read (for the minutes served windows cover). */
  private readMs: number;
  private next = 0;

  constructor(
    private readonly deps: RuleWindowsDeps,
    private readonly counts: MinuteCounts,
    /** The windows read through chunks, in order. */
    private readonly served: readonly MinuteWindow[],
  ) {
    this.readMs = served[0]?.startMs ?? 0;
  }

  /** Reads until every event of the window is in (windows come in order). */
  async readThrough(window: MinuteWindow): Promise<void> {
    // No window from this one on holds anything before its start: let it go, in bulk (a
    // slice per window would copy the buffer thousands of times).
    const drop = lowerBound(this.times, BigInt(window.startMs) * msNs);
    if (drop > 0 && drop * 2 >= this.times.length) {
      this.rows = this.rows.slice(drop);
      this.times = this.times.slice(drop);
    }
    while (this.served[this.next] !== undefined && (this.served[this.next] as MinuteWindow).endMs <= window.startMs) this.next++;
    while (this.readMs < window.endMs) {
      // The run of served windows overlapping from here: their minutes are contiguous, and a
      // chunk reads no minute outside them.
      let runEnd = window.endMs;
      for (let i = this.next; i < this.served.length; i++) {
        const w = this.served[i] as MinuteWindow;
        if (w.startMs > runEnd) break;
        runEnd = Math.max(runEnd, w.endMs);
      }
      const from = Math.max(this.readMs, window.startMs);
      const to = this.counts.chunkEnd(from, window.endMs, runEnd, this.deps.chunkRows ?? 20_000);
      await this.read({ startMs: from, endMs: to });
      this.readMs = to;
    }
  }

  /** The window's rows, as its own statement would return them (call after `readThrough`). */
  rowsOf(window: MinuteWindow): WindowRows {
    const { startNs, endNs } = toRange(window);
    const from = lowerBound(this.times, startNs);
    const rows = this.rows.slice(from, Math.min(lowerBound(this.times, endNs), from + this.deps.maxRows));
    return { columns: resultColumns(this.deps.plan.compiled.output, rows), rows };
  }

  private async read(range: MinuteWindow): Promise<void> {
    const { deps } = this;
    deps.onStatement?.('chunk');
    const compiled = compileQuery(deps.plan.analyzed, {
      tenant: deps.tenant,
      ...toRange(range),
      order: 'asc',
      partialWords: this.counts.between(range.startMs, range.endMs) >= partialWordsRows,
    });
    const result = await readCompiled(deps.engine, compiled, { settings: compiled.settings, signal: deps.signal });
    for (const row of decodeRows(compiled.output, result.rows, deps.plan.indexNames)) {
      this.rows.push(row);
      this.times.push(BigInt(row.rowId?.t ?? '0'));
    }
  }
}

/** The first position whose time is at least `ns` (times ascending). */
function lowerBound(times: readonly bigint[], ns: bigint): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as bigint) < ns) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function toRange(window: MinuteWindow): TimeRange {
  return { startNs: BigInt(window.startMs) * msNs, endNs: BigInt(window.endMs) * msNs };
}
