import { describe, expect, it } from 'vitest';
import { chartShape } from './chart-shape.js';

describe('which chart an aggregation gets', () => {
  it('bars for counts by a label', () => {
    const rows = [
      { user: 'a', '@q.count': 5 },
      { user: 'b', '@q.count': 2 },
    ];
    expect(chartShape(['user', '@q.count'], rows)).toEqual({ kind: 'bars', labels: ['user'], value: '@q.count' });
  });

  it('bars of the last numeric column when there is no count', () => {
    const rows = [
      { path: '/a', '@q.count': 1.5, ms: 3 },
      { path: '/b', '@q.count': 1, ms: 4 },
    ];
    expect(chartShape(['path', '@q.count', 'ms'], rows)).toMatchObject({ kind: 'bars', value: '@q.count' });
    expect(chartShape(['path', 'ms'], rows)).toEqual({ kind: 'bars', labels: ['path'], value: 'ms' });
  });

  it('a time chart when a column holds times', () => {
    const rows = [
      { hour: '2024-05-01T00:00:00Z', n: 1 },
      { hour: '2024-05-01T01:00:00Z', n: 3 },
    ];
    expect(chartShape(['hour', 'n'], rows)).toEqual({ kind: 'time', time: 'hour', value: 'n' });
  });

  it('no chart for one row, no number, or too many bars', () => {
    expect(chartShape(['@q.count'], [{ '@q.count': 3 }])).toBeNull();
    expect(
      chartShape(
        ['a', 'b'],
        [
          { a: 'x', b: 'y' },
          { a: 'z', b: null },
        ],
      ),
    ).toBeNull();
    const many = Array.from({ length: 51 }, (_, i) => ({ k: `k${i}`, n: i }));
    expect(chartShape(['k', 'n'], many)).toBeNull();
  });
});
