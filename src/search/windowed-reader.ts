import { adhocWorkload } from '../engine/index.js';
import { compileWindowedQuery, windowIndexColumn } from '../query/index.js';
import { decodeRows, type DecodedRow } from './decode-rows.js';
import { readCompiled } from './read-events.js';
import { msNs, windowRows, type MinuteWindow, type RuleWindowsDeps, type WindowRows } from './rule-window.js';

/** A statement fanning out at least this many events also looks up parts of words (docs/search.md). */
const partialWordsRows = 20_000;

/** Windows one grouped statement reads at most, and events it fans out at most (each is in every window of its look-back). */
const windowedBatch = { windows: 500, fannedEvents: 1_000_000, eventRows: 50_000 } as const;

/**
 * Reads the windows of a query that is not row-wise in grouped statements, consecutive windows
 * a batch at a time, and hands out each window's rows. A window the statement gives no rows
 * has none (its events never made it through, or its aggregation's rows were filtered out).
 */
export class WindowedReader {
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
    return windowRows(this.deps.plan.compiled.output, rows);
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
    // eslint-disable-next-line no-restricted-syntax -- internal invariant: callers pick the reader by query shape
    if (compiled === null) throw new Error('a row-wise query is read in chunks, not grouped by window');
    deps.onStatement?.('grouped');
    const result = await readCompiled(deps.engine, compiled, { settings: compiled.settings, signal: deps.signal, workload: adhocWorkload(deps.tenant) });
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
