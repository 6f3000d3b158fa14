import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketWidthNs, expectedMatches, firstSliceRows, nextSliceRows, SliceWalker, type TimeBucket, type TimeSlice } from './time-slices.js';

const hour = 3_600_000_000_000n;

/** The slices a search that finds nothing walks: each sized by `nextSliceRows` from the first. */
function planSlices(startNs: bigint, endNs: bigint, buckets: readonly TimeBucket[], backToFront: boolean): TimeSlice[] {
  const walker = new SliceWalker(startNs, endNs, buckets, backToFront);
  const slices: TimeSlice[] = [];
  let target = firstSliceRows;
  for (let slice = walker.next(target); slice !== null; slice = walker.next(target)) {
    slices.push({ startNs: slice.startNs, endNs: slice.endNs });
    target = nextSliceRows(target, { scannedRows: 0, foundRows: 0, wantedRows: 1000, remainingRows: walker.remainingRows });
  }
  return slices;
}

describe('slices of a search that finds nothing', () => {
  it('starts with a slice of about 10,000 events at the end and grows fourfold', () => {
    // 1,000 buckets of 1,000 events each
    const buckets = Array.from({ length: 1000 }, (_, index) => ({ index, rows: 1000 }));
    const slices = planSlices(0n, hour, buckets, true);
    const width = bucketWidthNs(0n, hour);
    const counts = slices.map((s) => Number((s.endNs - s.startNs) / width) * 1000);
    expect(firstSliceRows).toBe(10_000);
    expect(counts).toEqual([10_000, 40_000, 160_000, 640_000, 150_000]); // the last takes the rest
    expect(slices[0]?.endNs).toBe(hour);
  });

  it('skips quickly over empty stretches: data in the middle of a long range is the first slice', () => {
    const slices = planSlices(0n, 1000n * hour, [{ index: 500, rows: 10 }], true);
    expect(slices).toHaveLength(1);
    expect(slices[0]).toEqual({ startNs: 0n, endNs: 1000n * hour });
  });

  it('an empty range is one slice, so late arrivals are still found', () => {
    expect(planSlices(0n, hour, [], false)).toEqual([{ startNs: 0n, endNs: hour }]);
  });

  it('covers the range exactly once, in scan order, either way', () => {
    const bucketList = fc.array(fc.record({ index: fc.nat({ max: 999 }), rows: fc.nat({ max: 200_000 }) }), { maxLength: 50 });
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), fc.bigInt({ min: 1n, max: 10n ** 16n }), bucketList, fc.boolean(), (start, length, raw, back) => {
        const buckets: TimeBucket[] = [...new Map(raw.map((b) => [b.index, b])).values()];
        const slices = planSlices(start, start + length, buckets, back);
        const ordered = back ? [...slices].reverse() : slices;
        expect(ordered[0]?.startNs).toBe(start);
        expect(ordered.at(-1)?.endNs).toBe(start + length);
        for (let i = 1; i < ordered.length; i++) expect(ordered[i]?.startNs).toBe(ordered[i - 1]?.endNs);
        for (const s of slices) expect(s.startNs < s.endNs).toBe(true);
      }),
    );
  });
});

describe('SliceWalker', () => {
  it('cuts each slice where it holds the events asked for, counting them, and the last takes the rest', () => {
    const buckets = Array.from({ length: 1000 }, (_, index) => ({ index, rows: 1000 }));
    const walker = new SliceWalker(0n, hour, buckets, true);
    expect(walker.next(3_000)).toMatchObject({ endNs: hour, rows: 3_000 });
    expect(walker.remainingRows).toBe(997_000);
    expect(walker.next(500)?.rows).toBe(1_000); // whole buckets: never less than one
    expect(walker.next(2_000_000)).toMatchObject({ startNs: 0n, rows: 996_000 });
    expect(walker.next(1)).toBeNull();
    expect(walker.remainingRows).toBe(0);
  });
});

describe('SliceWalker with any targets', () => {
  it('covers the range exactly once, in scan order, whatever each slice asks for', () => {
    const bucketList = fc.array(fc.record({ index: fc.nat({ max: 999 }), rows: fc.nat({ max: 200_000 }) }), { maxLength: 50 });
    const targets = fc.array(fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.constant(Number.POSITIVE_INFINITY)), { minLength: 1, maxLength: 60 });
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
        fc.bigInt({ min: 1n, max: 10n ** 16n }),
        bucketList,
        targets,
        fc.boolean(),
        (start, length, raw, asked, back) => {
          const buckets: TimeBucket[] = [...new Map(raw.map((b) => [b.index, b])).values()];
          const walker = new SliceWalker(start, start + length, buckets, back);
          const slices = [];
          for (let i = 0, slice = walker.next(asked[0]!); slice !== null; i++, slice = walker.next(asked[i % asked.length]!)) slices.push(slice);
          const ordered = back ? [...slices].reverse() : slices;
          expect(ordered[0]?.startNs).toBe(start);
          expect(ordered.at(-1)?.endNs).toBe(start + length);
          for (let i = 1; i < ordered.length; i++) expect(ordered[i]?.startNs).toBe(ordered[i - 1]?.endNs);
          expect(walker.remainingRows).toBe(0);
        },
      ),
    );
  });
});

describe('nextSliceRows', () => {
  const progress = (scannedRows: number, foundRows: number, wantedRows: number, remainingRows = 5_000_000) => ({ scannedRows, foundRows, wantedRows, remainingRows });

  it('grows fourfold while nothing is found', () => {
    expect(nextSliceRows(10_000, progress(10_000, 0, 1000))).toBe(40_000);
  });

  it('asks for about four times the events the rows still wanted need at the density found, never more than fourfold', () => {
    // 975 rows in 300,000 events: 25 more need about 7,700 events
    expect(nextSliceRows(160_000, progress(300_000, 975, 25))).toBe(Math.ceil((4 * 25 * 300_000) / 975));
    expect(nextSliceRows(160_000, progress(300_000, 100, 900))).toBe(640_000);
    expect(nextSliceRows(160_000, progress(300_000, 999, 1))).toBe(firstSliceRows);
  });

  it('takes the rest of the range at once when at the density found it cannot fill the page', () => {
    // 8 rows in 120,000 events: the other 5 M events would hold about 333 of the 992 wanted
    expect(nextSliceRows(40_000, progress(120_000, 8, 992))).toBe(Number.POSITIVE_INFINITY);
    expect(nextSliceRows(40_000, progress(120_000, 96, 904))).toBe(160_000);
  });

  it('keeps slicing a rest that one statement could not return: a large page', () => {
    // 96 rows in 120,000 events: the other 5 M events would hold about 4,000 rows, under the 99,904 wanted
    expect(nextSliceRows(40_000, progress(120_000, 96, 99_904))).toBe(160_000);
  });
});

describe('expectedMatches', () => {
  it('scales the rows found per event scanned to the slice, and knows nothing before a scan', () => {
    expect(expectedMatches(20_000, 10_000, 5)).toBe(10);
    expect(expectedMatches(20_000, 10_000, 0)).toBe(0);
    expect(expectedMatches(20_000, 0, 0)).toBeNull();
  });
});
