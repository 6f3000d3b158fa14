import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketStart, chooseHistogramBuckets, histogramBucketSeconds, histogramSlices } from './histogram-buckets.js';

const s = 1_000_000_000n;
const at = (iso: string): bigint => BigInt(Date.parse(iso)) * 1_000_000n;
const range = (from: string, to: string) => ({ startNs: at(from), endNs: at(to) });

describe('chooseHistogramBuckets', () => {
  it('takes the smallest listed size that keeps the range within max_buckets', () => {
    expect(chooseHistogramBuckets(range('2026-03-01T12:00:00Z', '2026-03-01T12:15:00Z'), 120).bucketNs).toBe(10n * s);
    expect(chooseHistogramBuckets(range('2026-03-01T12:00:00Z', '2026-03-01T13:00:00Z'), 120).bucketNs).toBe(30n * s);
    expect(chooseHistogramBuckets(range('2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z'), 120).bucketNs).toBe(900n * s);
    expect(chooseHistogramBuckets(range('2026-02-22T00:00:00Z', '2026-03-01T00:00:00Z'), 120).bucketNs).toBe(7_200n * s);
    expect(chooseHistogramBuckets(range('2026-02-01T00:00:00Z', '2026-03-03T00:00:00Z'), 120).bucketNs).toBe(21_600n * s);
    expect(chooseHistogramBuckets(range('2026-03-01T00:00:00Z', '2026-03-01T00:00:00.5Z'), 120).bucketNs).toBe(s);
  });

  it('counts the buckets the range touches, so an unaligned range may need the next size', () => {
    // 2 min from :30 touches three 1 min buckets, so two buckets need 2 min; from :00 two 1 min buckets.
    const plan = chooseHistogramBuckets(range('2026-03-01T12:00:30Z', '2026-03-01T12:02:30Z'), 2);
    expect(plan).toEqual({ bucketNs: 120n * s, firstBucketNs: at('2026-03-01T12:00:00Z'), buckets: 2 });
    expect(chooseHistogramBuckets(range('2026-03-01T12:00:00Z', '2026-03-01T12:02:00Z'), 2).bucketNs).toBe(60n * s);
  });

  it('aligns days to midnight UTC and weeks to Monday', () => {
    const daily = chooseHistogramBuckets(range('2026-03-04T15:00:00Z', '2026-05-01T00:00:00Z'), 60);
    expect(daily).toMatchObject({ bucketNs: 86_400n * s, firstBucketNs: at('2026-03-04T00:00:00Z') });
    const weekly = chooseHistogramBuckets(range('2026-03-04T15:00:00Z', '2026-09-01T00:00:00Z'), 30);
    // 2026-03-02 is a Monday.
    expect(weekly).toMatchObject({ bucketNs: 604_800n * s, firstBucketNs: at('2026-03-02T00:00:00Z') });
    expect(bucketStart(at('1969-12-31T23:00:00Z'), 86_400n * s)).toBe(at('1969-12-31T00:00:00Z'));
  });

  it('goes past a week in whole weeks for very long ranges (all time is 1900 to 2262)', () => {
    const all = chooseHistogramBuckets({ startNs: at('1900-01-01T00:00:00Z'), endNs: at('2262-04-11T00:00:00Z') }, 1000);
    expect(all.bucketNs % (604_800n * s)).toBe(0n);
    expect(all.buckets).toBeLessThanOrEqual(1000);
    const smaller = all.bucketNs - 604_800n * s;
    const firstSmaller = bucketStart(at('1900-01-01T00:00:00Z'), smaller);
    expect((bucketStart(at('2262-04-10T23:59:59Z'), smaller) - firstSmaller) / smaller + 1n).toBeGreaterThan(1000n);
  });

  it('refuses an empty range and fewer than two buckets', () => {
    expect(() => chooseHistogramBuckets({ startNs: 5n, endNs: 5n }, 10)).toThrow(/non-empty/);
    expect(() => chooseHistogramBuckets({ startNs: 5n, endNs: 6n }, 1)).toThrow(/at least 2/);
  });

  it('property: the plan covers the range in at most max_buckets aligned buckets, and no smaller listed size would', () => {
    const anyNs = fc.bigInt({ min: -2_208_988_800n * s, max: 9_200_000_000n * s });
    fc.assert(
      fc.property(anyNs, fc.bigInt({ min: 1n, max: 400n * 365n * 86_400n * s }), fc.integer({ min: 2, max: 1000 }), (start, length, max) => {
        const r = { startNs: start, endNs: start + length };
        const plan = chooseHistogramBuckets(r, max);
        expect(plan.buckets).toBeLessThanOrEqual(max);
        expect(plan.firstBucketNs).toBeLessThanOrEqual(r.startNs);
        expect(plan.firstBucketNs + plan.bucketNs).toBeGreaterThan(r.startNs);
        expect(plan.firstBucketNs + BigInt(plan.buckets) * plan.bucketNs).toBeGreaterThanOrEqual(r.endNs);
        for (const seconds of histogramBucketSeconds) {
          const size = BigInt(seconds) * s;
          if (size >= plan.bucketNs) break;
          const touched = (bucketStart(r.endNs - 1n, size) - bucketStart(r.startNs, size)) / size + 1n;
          expect(touched).toBeGreaterThan(BigInt(max));
        }
      }),
    );
  });
});

describe('histogramSlices', () => {
  const grid = { gridStartNs: 0n, gridNs: 10n, firstSliceRows: 100 };
  const whole = { startNs: 0n, endNs: 1000n };

  it('cuts newest first at cell edges, growing fourfold, from the newest to the oldest cell with events', () => {
    const cells = [
      { index: 2, rows: 500 },
      { index: 10, rows: 50 },
      { index: 11, rows: 0 },
      { index: 40, rows: 60 },
      { index: 90, rows: 120 },
      { index: 95, rows: 0 },
    ];
    expect(histogramSlices(whole, cells, grid)).toEqual([
      { startNs: 900n, endNs: 910n, rows: 120 },
      // 60 + 50 < 400: the slice takes the empty cells between, and ends with the oldest cell.
      { startNs: 20n, endNs: 410n, rows: 610 },
    ]);
  });

  it('clamps the outer slices to the range, whose ends need not be cell edges', () => {
    const cells = [
      { index: 0, rows: 10 },
      { index: 3, rows: 1000 },
    ];
    expect(histogramSlices({ startNs: 5n, endNs: 35n }, cells, grid)).toEqual([
      { startNs: 30n, endNs: 35n, rows: 1000 },
      { startNs: 5n, endNs: 10n, rows: 10 },
    ]);
  });

  it('gives nothing when no cell has events', () => {
    expect(histogramSlices(whole, [{ index: 4, rows: 0 }], grid)).toEqual([]);
  });
});
