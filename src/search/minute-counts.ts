export const minuteMs = 60_000;

/** Rows per minute of the span (the query's own rows when they are events, else the events its first aggregation, `head` or `tail` takes). */
export class MinuteCounts {
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
