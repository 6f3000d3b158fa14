import { describe, expect, it } from 'vitest';
import { describeBucket, histogramSeries, maxBucketsFor, zoomRange } from './histogram-series.js';

const range = { start: new Date('2024-05-01T00:00:00Z'), end: new Date('2024-05-01T01:00:00Z') };

describe('the histogram', () => {
  it('asks for as many buckets as bars of 6 px fit, between 10 and 1000', () => {
    expect(maxBucketsFor(720)).toBe(120);
    expect(maxBucketsFor(30)).toBe(10);
    expect(maxBucketsFor(100_000)).toBe(1000);
  });

  it('fills the buckets the server left out (empty ones) with zero', () => {
    const series = histogramSeries(
      [
        { '@svc.bucket': '2024-05-01T00:10:00Z', count: 4 },
        { '@svc.bucket': '2024-05-01T00:50:00Z', count: 1 },
      ],
      600,
      range,
    );
    expect(series.counts).toEqual([0, 4, 0, 0, 0, 1]);
    expect(series.starts[1]).toBe(Date.parse('2024-05-01T00:10:00Z') / 1000);
    expect(series.total).toBe(5);
  });

  it('aligns buckets to whole bucket sizes, covering a range that starts mid-bucket', () => {
    const series = histogramSeries([{ '@svc.bucket': '2024-05-01T00:00:00Z', count: 2 }], 600, {
      start: new Date('2024-05-01T00:05:00Z'),
      end: new Date('2024-05-01T00:25:00Z'),
    });
    expect(series.starts.map((s) => new Date(s * 1000).toISOString().slice(11, 16))).toEqual(['00:00', '00:10', '00:20']);
    expect(series.counts).toEqual([2, 0, 0]);
  });

  it('aligns weekly buckets to Mondays, as the server counts them', () => {
    const series = histogramSeries([], 604_800, { start: new Date('2024-05-01T00:00:00Z'), end: new Date('2024-05-20T00:00:00Z') });
    expect(series.starts.map((s) => new Date(s * 1000).toISOString().slice(0, 10))).toEqual(['2024-04-29', '2024-05-06', '2024-05-13']);
  });

  it('ignores rows outside the range or without a count', () => {
    const series = histogramSeries(
      [
        { '@svc.bucket': '2024-04-30T23:50:00Z', count: 9 },
        { '@svc.bucket': 'nonsense', count: 9 },
        { '@svc.bucket': '2024-05-01T00:00:00Z', count: null },
      ],
      600,
      range,
    );
    expect(series.total).toBe(0);
  });

  it('zooms to the dragged buckets, widened to whole buckets; a click is no zoom', () => {
    const series = histogramSeries([], 600, range);
    const t = (iso: string): number => Date.parse(iso) / 1000;
    expect(zoomRange(series, t('2024-05-01T00:25:00Z'), t('2024-05-01T00:12:00Z'))).toEqual({
      start: new Date('2024-05-01T00:10:00Z'),
      end: new Date('2024-05-01T00:30:00Z'),
    });
    expect(zoomRange(series, t('2024-05-01T00:10:00Z'), t('2024-05-01T00:10:00Z'))).toBeNull();
  });

  it('names bucket sizes', () => {
    expect([1, 30, 60, 900, 3600, 43_200, 86_400, 604_800].map(describeBucket)).toEqual(['1 s', '30 s', '1 min', '15 min', '1 h', '12 h', '1 d', '7 d']);
  });
});
