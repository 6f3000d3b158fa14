/**
 * Time slices of an event search (ARCHITECTURE.md section 5), sized by how many events each
 * covers rather than by how long it is: a cheap histogram of event times in the range (from the
 * per-minute counts kept on insert) is cut into slices of about `firstSliceRows` events,
 * growing fourfold, walked from the end of the range back (or from the start forward). So the
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

/**
 * Cuts the range into slices from a histogram. Slices are contiguous and cover the whole range
 * (events that arrive after the histogram in an empty stretch are still found); each closes
 * once it holds the target number of events.
 */
export function planSlices(startNs: bigint, endNs: bigint, buckets: readonly TimeBucket[], backToFront: boolean): TimeSlice[] {
  const width = bucketWidthNs(startNs, endNs);
  const edge = (index: number): bigint => {
    const at = startNs + BigInt(index) * width;
    return at > endNs ? endNs : at;
  };
  const ordered = buckets.filter((b) => b.rows > 0).sort((a, b) => (backToFront ? b.index - a.index : a.index - b.index));
  const slices: TimeSlice[] = [];
  let target = firstSliceRows;
  let rows = 0;
  let open = backToFront ? endNs : startNs; // where the next slice begins
  for (const bucket of ordered) {
    rows += bucket.rows;
    if (rows < target) continue;
    const cut = backToFront ? edge(bucket.index) : edge(bucket.index + 1);
    if (cut !== open) slices.push(backToFront ? { startNs: cut, endNs: open } : { startNs: open, endNs: cut });
    open = cut;
    rows = 0;
    target *= 4;
  }
  const last = backToFront ? startNs : endNs;
  if (open !== last) slices.push(backToFront ? { startNs: last, endNs: open } : { startNs: open, endNs: last });
  return slices;
}
