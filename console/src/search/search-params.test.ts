import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultParams, paramsFromSearch, paramsToSearch, rowLimits, searchKey, type SearchParams } from './search-params.js';
import type { TimeRange } from './time-range.js';

const range: fc.Arbitrary<TimeRange> = fc.oneof(
  fc.constant<TimeRange>({ kind: 'all' }),
  fc.record({ kind: fc.constant('relative' as const), amount: fc.integer({ min: 1, max: 999 }), unit: fc.constantFrom('m' as const, 'h' as const, 'd' as const) }),
  fc
    .tuple(fc.integer({ min: 0, max: 4_000_000_000_000 }), fc.integer({ min: 1, max: 1_000_000_000 }))
    .map(([start, length]) => ({ kind: 'absolute' as const, start: new Date(start), end: new Date(start + length) })),
);

const params: fc.Arbitrary<SearchParams> = fc.record({
  query: fc.string({ unit: 'grapheme', maxLength: 60 }),
  range,
  index: fc.option(fc.stringMatching(/^[a-z][a-z0-9_-]{0,20}$/), { nil: null }),
  columns: fc.array(fc.stringMatching(/^[@a-zA-Z_][\w.@\[\]]{0,20}$/), { maxLength: 4 }),
  maxRows: fc.constantFrom(...rowLimits),
  zone: fc.constantFrom('utc' as const, 'local' as const),
});

describe('the search URL', () => {
  it('round-trips every search: query, range, index, columns, rows and zone', () => {
    fc.assert(
      fc.property(params, (p) => {
        expect(paramsFromSearch(paramsToSearch(p))).toEqual(p);
      }),
    );
  });

  it('carries the query text exactly, pipes, quotes, newlines and # included', () => {
    const query = 'user: "a b" # note\n| stats count() by `user name`';
    const url = paramsToSearch({ ...defaultParams, query });
    expect(url).not.toContain('\n');
    expect(paramsFromSearch(url).query).toBe(query);
  });

  it("keeps relative ranges relative, so a link means the reader's last 24 hours", () => {
    expect(paramsToSearch({ ...defaultParams, range: { kind: 'relative', amount: 24, unit: 'h' } })).toContain('range=24h');
  });

  it('writes absolute ranges as RFC 3339 instants', () => {
    const url = paramsToSearch({ ...defaultParams, range: { kind: 'absolute', start: new Date('2024-05-01T00:00:00Z'), end: new Date('2024-05-02T12:30:00Z') } });
    expect(new URLSearchParams(url).get('range')).toBe('2024-05-01T00:00:00.000Z..2024-05-02T12:30:00.000Z');
  });

  it('falls back to defaults for what it cannot read', () => {
    expect(paramsFromSearch('?range=yesterday&rows=7&tz=mars')).toEqual(defaultParams);
    expect(paramsFromSearch('?range=2024-05-02T00:00:00Z..2024-05-01T00:00:00Z').range).toEqual(defaultParams.range);
    expect(paramsFromSearch('?range=2024-05-01T00:00:00..2024-05-02T00:00:00').range).toEqual(defaultParams.range); // no zone
  });
});

describe('what starts a new search', () => {
  it('is a change of query, range, index or row limit, not of columns or time zone', () => {
    const key = searchKey(defaultParams);
    expect(searchKey({ ...defaultParams, columns: ['user'], zone: 'local' })).toBe(key);
    for (const change of [{ query: 'x' }, { range: { kind: 'all' } as const }, { index: 'web' }, { maxRows: 100 }]) {
      expect(searchKey({ ...defaultParams, ...change })).not.toBe(key);
    }
  });
});
