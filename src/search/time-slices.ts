/**
 * Time slices of an event search (ARCHITECTURE.md section 5), sized by how many events each
 * covers rather than by how long it is: a cheap histogram of event times in the range (from the
 * per-minute counts kept on insert) is cut into slices of about `firstSliceRows` events,
 * growing fourfold (less once the matches found tell how many events the rest of the page
 * needs), walked from the end of the range back (or from the start forward). So the
 * first rows arrive after scanning a small part of the data wherever in the range it lies,
 * and a sparse range takes few slices. Slices are half-open and never split a timestamp.
 */

export interface TimeSlice {
  readonly startNs: bigint;
  readonly endNs: bigint;
}

/** Events in one histogram bucket: bucket i covers [start + i·width, start + (i+1)·width). */
export interface TimeBucket {
  readonly index: number;
  readonly rows: number;
}

/** How many buckets the histogram has at most. */
export const histogramBuckets = 1000;

/** Rows one slice statement returns at most; a slice that holds more is read in several. */
export const sliceStatementRows = 5_000;

/** Rows the statement bringing a search's first rows returns at most: small, so they show soon. */
export const firstStatementRows = 1_000;

/** Events the first slice covers; each next slice covers four times more. */
export const firstSliceRows = 10_000;

/** The bucket width (ns) for a range: at least 1 ms, at most `histogramBuckets` buckets. */
export function bucketWidthNs(startNs: bigint, endNs: bigint): bigint {
  const width = (endNs - startNs + BigInt(histogramBuckets) - 1n) / BigInt(histogramBuckets);
  return width < 1_000_000n ? 1_000_000n : width;
}

/** A slice and the events the histogram counted in it. */
export interface CountedSlice extends TimeSlice {
  readonly rows: number;
}

/**
 * Walks the range in scan order, cutting each next slice where it holds the number of events
 * asked for. Slices are contiguous and cover the whole range (events that arrive after the
 * histogram in an empty stretch are still found): the last one takes the rest.
 */
export class SliceWalker {
  private readonly ordered: TimeBucket[];
  private readonly width: bigint;
  private at = 0;
  private remaining: number;
  private open: bigint; // where the next slice begins

  constructor(
    private readonly startNs: bigint,
    private readonly endNs: bigint,
    buckets: readonly TimeBucket[],
    private readonly backToFront: boolean,
  ) {
    this.width = bucketWidthNs(startNs, endNs);
    this.ordered = buckets.filter((b) => b.rows > 0).sort((a, b) => (backToFront ? b.index - a.index : a.index - b.index));
    this.remaining = this.ordered.reduce((sum, b) => sum + b.rows, 0);
    this.open = backToFront ? endNs : startNs;
  }

  /** Events the histogram counted in the part of the range not yet sliced. */
  get remainingRows(): number {
    return this.remaining;
  }

  /** The next slice, holding at least `targetRows` events unless it is the last; null past the range. */
  next(targetRows: number): CountedSlice | null {
    const last = this.backToFront ? this.startNs : this.endNs;
    let rows = 0;
    while (this.at < this.ordered.length) {
      const bucket = this.ordered[this.at++] as TimeBucket;
      rows += bucket.rows;
      this.remaining -= bucket.rows;
      if (rows < targetRows) continue;
      const cut = this.edge(this.backToFront ? bucket.index : bucket.index + 1);
      if (cut !== this.open) return this.take(cut, rows);
      rows = 0; // the cut is where the slice begins (a bucket clamped to the range's end): no slice to cut yet
    }
    return this.open === last ? null : this.take(last, rows);
  }

  private take(cut: bigint, rows: number): CountedSlice {
    const slice = this.backToFront ? { startNs: cut, endNs: this.open, rows } : { startNs: this.open, endNs: cut, rows };
    this.open = cut;
    return slice;
  }

  private edge(index: number): bigint {
    const at = this.startNs + BigInt(index) * this.width;
    return at > this.endNs ? this.endNs : at;
  }
}

/** How much larger each slice is than the one before when the rows found say nothing better. */
const sliceGrowth = 4;

/**
 * How far the density of matches found is trusted: matches cluster, so a slice asks for this many
 * times the events the density says the page needs, and the rest of the range is one statement
 * only when this many times what it should hold fits one statement.
 */
const densityMargin = 4;

/**
 * Matches a slice of `sliceRows` events should hold at the density found so far (rows found per
 * event scanned); null before any event was scanned, when nothing is known.
 */
export function expectedMatches(sliceRows: number, scannedRows: number, foundRows: number): number | null {
  return scannedRows === 0 ? null : (sliceRows * foundRows) / scannedRows;
}

/** What a search has seen so far, for sizing its next slice. */
export interface SliceProgress {
  /** Events the histogram counted in the slices read. */
  readonly scannedRows: number;
  /** Rows those slices gave the page. */
  readonly foundRows: number;
  /** Rows the page still wants. */
  readonly wantedRows: number;
  /** Events the histogram counts in the rest of the range. */
  readonly remainingRows: number;
}

/**
 * Events the next slice should hold: four times the last while nothing has been found. Once rows
 * have been found, their density says how many rows the rest of the range holds:
 * - all of the rest (Infinity) when that is no more than the page still wants and, four times
 *   over, fits one statement (`sliceStatementRows`): a sparse search (374 matches in 5 M events)
 *   reads it in one statement, not four more, each costing its own planning and index reads.
 *   The margin keeps a scan for a large page (100,000 rows) in slices: a rest read by one
 *   statement after another, each returning 5,000 rows, reads far more than its slices would;
 * - otherwise four times the events the rows still wanted need, if that is less than fourfold
 *   growth: a slice statement whose matches do not fill its limit reads every candidate row of
 *   its slice, so a slice far larger than needed costs its whole read. A phrase with 975 of its
 *   1,000 rows after 300,000 events reads about 31,000 more, not 640,000 (its last slice cost
 *   35 ms for 26 rows). Matches cluster, so the margin is wide: with twice the estimate, that
 *   slice often fell short and cost a statement more.
 */
export function nextSliceRows(previous: number, progress: SliceProgress): number {
  const { scannedRows, foundRows, wantedRows, remainingRows } = progress;
  const grown = previous * sliceGrowth;
  const restHolds = expectedMatches(remainingRows, scannedRows, foundRows);
  if (restHolds === null || foundRows === 0) return grown;
  if (restHolds <= wantedRows && densityMargin * restHolds <= sliceStatementRows) return Number.POSITIVE_INFINITY;
  const needed = Math.ceil((densityMargin * wantedRows * scannedRows) / foundRows);
  return Math.max(firstSliceRows, Math.min(grown, needed));
}
