/**
 * A rule's query over many windows (rule preview), each result exactly what the scheduler's
 * window query (`runOnce`: events earliest first up to `maxRows`, or the whole aggregation)
 * returns, without one statement per window where that can be avoided:
 *
 * - A query whose rows are events (a filter, optionally with `where`, `eval`, `rename`, `table`, `lookup`)
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
import { adhocWorkload } from '../engine/index.js';
import { compileQuery, compileRowHistogram, isSliceable } from '../query/index.js';
import { decodeRows } from './decode-rows.js';
import { MinuteCounts, minuteMs } from './minute-counts.js';
import { readCompiled } from './read-events.js';
import { msNs, toRange, windowRows, type MinuteWindow, type RuleWindowsDeps, type WindowRows } from './rule-window.js';
import { ChunkReader } from './window-chunk-reader.js';
import { WindowedReader } from './windowed-reader.js';

export type { MinuteWindow, RuleWindowsDeps, WindowRows } from './rule-window.js';

/** The windows' results in the order given (windows sorted by start, all the same length). */
export async function* ruleWindowResults(deps: RuleWindowsDeps, windows: readonly MinuteWindow[]): AsyncGenerator<{ window: MinuteWindow; rows: WindowRows }> {
  const first = windows[0];
  const last = windows.at(-1);
  if (first === undefined || last === undefined) return;
  for (const w of windows) {
    // eslint-disable-next-line no-restricted-syntax -- internal invariant: the window plan aligns windows to minutes
    if (w.startMs % minuteMs !== 0 || w.endMs % minuteMs !== 0) throw new Error('rule windows are whole minutes');
  }
  const span = { startMs: first.startMs, endMs: last.endMs };
  const counts = await minuteCounts(deps, span);
  const countOf = (w: MinuteWindow): number => counts.between(w.startMs, w.endMs);
  const perEvent = isSliceable(deps.plan.query);
  const reader = perEvent
    ? new ChunkReader(
        deps,
        counts,
        windows.filter((w) => countOf(w) > 0 && countOf(w) <= deps.maxRows),
      )
    : null;
  const grouped = perEvent || !isSeries(windows) ? null : new WindowedReader(deps, windows, countOf);
  let empty: WindowRows | null = null;
  for (const [position, window] of windows.entries()) {
    deps.signal.throwIfAborted();
    const n = countOf(window);
    let rows: WindowRows;
    if (perEvent && n === 0) rows = windowRows(deps.plan.compiled.output, []);
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
  const result = await readCompiled(deps.engine, compiled, { settings: compiled.settings, signal: deps.signal, workload: adhocWorkload(deps.tenant) });
  const rows = decodeRows(compiled.output, result.rows, deps.plan.indexNames);
  return windowRows(compiled.output, rows);
}

async function minuteCounts(deps: RuleWindowsDeps, span: MinuteWindow): Promise<MinuteCounts> {
  deps.onStatement?.('count');
  const range = toRange(span);
  const compiled = compileRowHistogram(deps.plan.analyzed, { tenant: deps.tenant, ...range, firstBucketNs: range.startNs, bucketNs: BigInt(minuteMs) * msNs, partialWords: true });
  const result = await deps.engine.query<{ bucket: string; rows: number }>(compiled.sql, {
    settings: compiled.settings,
    signal: deps.signal,
    workload: adhocWorkload(deps.tenant),
  });
  return new MinuteCounts(span.startMs, (span.endMs - span.startMs) / minuteMs, result.rows);
}

/** Whether the windows are one series: consecutive, equally spaced, of one length (as a rule's are). */
function isSeries(windows: readonly MinuteWindow[]): boolean {
  const [first, second] = windows;
  if (first === undefined || second === undefined) return true;
  const step = second.endMs - first.endMs;
  const length = first.endMs - first.startMs;
  return step > 0 && step <= length && windows.every((w, i) => w.endMs === first.endMs + i * step && w.endMs - w.startMs === length);
}
