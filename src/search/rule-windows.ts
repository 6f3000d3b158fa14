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
 * - Any other query (aggregations, `head`, `tail`) counts per minute the events its first such
 *   command takes. The windows holding some are read in grouped statements of up to 500 windows
 *   (compileWindowedQuery: every event fanned out to its windows, every command per window); the
 *   windows holding none all get the result of one statement over the first of them (`count`
 *   gives 0 there, for instance), since an aggregation of no events does not depend on the window.
 *
 * Windows are whole minutes (their ends are multiples of the run frequency, their length a
 * multiple of 60 s), so per-minute counts are exact per window.
 */
import type { Engine } from '../engine/index.js';
import { compileQuery, compileRowHistogram, compileWindowedQuery, isSliceable, windowIndexColumn } from '../query/index.js';
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
  readonly onStatement?: (kind: 'count' | 'chunk' | 'window' | 'grouped') => void;
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
  const grouped = perEvent || !isSeries(windows) ? null : new WindowedReader(deps, windows, countOf);
  let empty: WindowRows | null = null;
  for (const [position, window] of windows.entries()) {
    deps.signal.throwIfAborted();
    const n = countOf(window);
    let rows: WindowRows;
    if (perEvent && n === 0) rows = { columns: resultColumns(deps.plan.compiled.output, []), rows: [] };
    else if (reader !== null && n <= deps.maxRows) {
      await reader.readThrough(window);
      rows = reader.rowsOf(window);
    } else if (perEvent) rows = await runWindow(deps, window);
    else if (n === 0) rows = empty ??= await runWindow(deps, window);
    else rows = grouped === null ? await runWindow(deps, window) : await grouped.rowsOf(position);
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

/** Rows per minute of the span (the query's own rows when they are events, else the events its first aggregation, `head` or `tail` takes). */
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
      // The run of served windows overlapping from here: a chunk reads no minute with rows
      // outside them (those are only in windows that run alone).
      // A gap without rows may be spanned too: it costs a statement nothing to read.
      let runEnd = window.endMs;
      for (let i = this.next; i < this.served.length; i++) {
        const w = this.served[i] as MinuteWindow;
        if (w.startMs > runEnd && this.counts.between(runEnd, w.startMs) > 0) break;
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

/** Windows one grouped statement reads at most, and events it fans out at most (each is in every window of its look-back). */
const windowedBatch = { windows: 500, fannedEvents: 1_000_000, eventRows: 50_000 } as const;

/**
 * Reads the windows of a query that is not row-wise in grouped statements, consecutive windows
 * a batch at a time, and hands out each window's rows. A window the statement gives no rows
 * has none (its events never made it through, or its aggregation's rows were filtered out).
 */
class WindowedReader {
  private readonly rows = new Map<number, DecodedRow[]>();
  /** Windows before this position have been read. */
  private readTo = 0;

  constructor(
    private readonly deps: RuleWindowsDeps,
    private readonly windows: readonly MinuteWindow[],
    private readonly countOf: (window: MinuteWindow) => number,
  ) {}

  /** The rows of the window at this position (positions come in order). */
  async rowsOf(position: number): Promise<WindowRows> {
    if (position >= this.readTo) await this.read(position);
    const rows = this.rows.get(position) ?? [];
    this.rows.delete(position);
    return { columns: resultColumns(this.deps.plan.compiled.output, rows), rows };
  }

  private async read(from: number): Promise<void> {
    const { deps, windows } = this;
    const events = deps.plan.compiled.output.kind === 'events';
    let to = from;
    let fanned = 0;
    let eventRows = 0;
    while (to < windows.length && to - from < windowedBatch.windows) {
      const n = this.countOf(windows[to] as MinuteWindow);
      if (to > from && (fanned + n > windowedBatch.fannedEvents || (events && eventRows + Math.min(n, deps.maxRows) > windowedBatch.eventRows))) break;
      fanned += n;
      eventRows += Math.min(n, deps.maxRows);
      to++;
    }
    const first = windows[from] as MinuteWindow;
    const frequencyMs = windows.length > 1 ? (windows[1] as MinuteWindow).endMs - (windows[0] as MinuteWindow).endMs : first.endMs - first.startMs;
    const series = { firstEndNs: BigInt(first.endMs) * msNs, frequencyNs: BigInt(frequencyMs) * msNs, rangeNs: BigInt(first.endMs - first.startMs) * msNs, count: to - from };
    const compiled = compileWindowedQuery(deps.plan.analyzed, { tenant: deps.tenant, windows: series, limit: deps.maxRows, partialWords: fanned >= partialWordsRows });
    if (compiled === null) throw new Error('a row-wise query is read in chunks, not grouped by window');
    deps.onStatement?.('grouped');
    const result = await readCompiled(deps.engine, compiled, { settings: compiled.settings, signal: deps.signal });
    const byWindow = new Map<number, Record<string, unknown>[]>();
    for (const row of result.rows) {
      const k = from + Number(row[windowIndexColumn]);
      const list = byWindow.get(k);
      if (list === undefined) byWindow.set(k, [row]);
      else list.push(row);
    }
    for (const [k, rows] of byWindow) this.rows.set(k, decodeRows(compiled.output, rows, deps.plan.indexNames));
    this.readTo = to;
  }
}

/** Whether the windows are one series: consecutive, equally spaced, of one length (as a rule's are). */
function isSeries(windows: readonly MinuteWindow[]): boolean {
  const [first, second] = windows;
  if (first === undefined || second === undefined) return true;
  const step = second.endMs - first.endMs;
  const length = first.endMs - first.startMs;
  return step > 0 && step <= length && windows.every((w, i) => w.endMs === first.endMs + i * step && w.endMs - w.startMs === length);
}

function toRange(window: MinuteWindow): TimeRange {
  return { startNs: BigInt(window.startMs) * msNs, endNs: BigInt(window.endMs) * msNs };
}
