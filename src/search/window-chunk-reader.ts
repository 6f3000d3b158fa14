import { adhocWorkload } from '../engine/index.js';
import { compileQuery } from '../query/index.js';
import { decodeRows, type DecodedRow } from './decode-rows.js';
import type { MinuteCounts } from './minute-counts.js';
import { readCompiled } from './read-events.js';
import { msNs, toRange, windowRows, type MinuteWindow, type RuleWindowsDeps, type WindowRows } from './rule-window.js';

/** A chunk over at least this many events also looks up parts of words (docs/search.md). */
const partialWordsRows = 20_000;

/**
 * Reads the events of the windows it serves in chunks, in time order, and keeps those that a
 * window still to come may need. Every minute of a served window is read, and only such minutes.
 */
export class ChunkReader {
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
    return windowRows(this.deps.plan.compiled.output, rows);
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
    const result = await readCompiled(deps.engine, compiled, { settings: compiled.settings, signal: deps.signal, workload: adhocWorkload(deps.tenant) });
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
