import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Value } from '../ast.js';
import type { EvalEvent } from './eval-table.js';
import { evaluateQuery } from './evaluate-query.js';
import { matchesTerm } from './matches-term.js';
import { and, bare, double, groupbycount, head, match, not, or, query, single, stats, tail, vor } from './testing/ast-builder.js';
import { cellValue, columnName, eventList, filter, separator, stringTerm, tokenWord, valueText } from './testing/arbitraries.js';

// A row's identity is its whole content; identical rows pass or fail every filter together.
const rowsOf = (q: Parameters<typeof evaluateQuery>[0], list: EvalEvent[]): string[] => evaluateQuery(q, list).rows.map((r) => JSON.stringify(Object.entries(r)));

const swapAsciiCase = (s: string): string => Array.from(s, (c) => (/^[a-z]$/.test(c) ? c.toUpperCase() : /^[A-Z]$/.test(c) ? c.toLowerCase() : c)).join('');
const foldAscii = (s: string): string => Array.from(s, (c) => (/^[A-Z]$/.test(c) ? c.toLowerCase() : c)).join('');

describe('term matching properties', () => {
  it('bare and single-quoted terms ignore the ASCII case of the value', () => {
    fc.assert(
      fc.property(valueText, stringTerm, fc.constantFrom('contains' as const, 'whole' as const), (value, term, mode) => {
        const insensitive: Value = { ...term, quote: term.quote === 'double' ? 'single' : term.quote };
        expect(matchesTerm(swapAsciiCase(value), insensitive, mode)).toBe(matchesTerm(value, insensitive, mode));
      }),
    );
  });

  it('a whole-value match is also a contains match, and an exact match also an ASCII-caseless one', () => {
    fc.assert(
      fc.property(valueText, stringTerm, (value, term) => {
        if (matchesTerm(value, term, 'whole')) expect(matchesTerm(value, term, 'contains')).toBe(true);
        if (matchesTerm(value, { ...term, quote: 'double' }, 'contains')) expect(matchesTerm(value, { ...term, quote: 'bare' }, 'contains')).toBe(true);
      }),
    );
  });

  // An independent statement of D11/D12 for one-word terms over values built from words.
  it('a one-word term matches exactly the words of the value; word* their starts; *word their ends', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(tokenWord, separator), { minLength: 1, maxLength: 4 }), tokenWord, (parts, word) => {
        const value = parts.map(([w, s]) => w + s).join('');
        const words = parts.map(([w]) => foldAscii(w));
        const w = foldAscii(word);
        expect(matchesTerm(value, bare(word), 'contains')).toBe(words.includes(w));
        expect(matchesTerm(value, bare(`${word}*`), 'contains')).toBe(words.some((x) => x.startsWith(w)));
        expect(matchesTerm(value, bare(`*${word}`), 'contains')).toBe(words.some((x) => x.endsWith(w)));
        expect(matchesTerm(value, bare(`*${word}*`), 'contains')).toBe(foldAscii(value).includes(w));
        expect(matchesTerm(value, double(word), 'contains')).toBe(parts.some(([x]) => x === word));
      }),
    );
  });

  it('a term without wildcards that contains a separator matches where its text occurs between boundaries', () => {
    fc.assert(
      fc.property(tokenWord, separator, tokenWord, separator, (before, sep, after, outer) => {
        const phrase = `${before}${sep}${after}`;
        expect(matchesTerm(`x${outer}${phrase}${outer}y`, single(phrase), 'contains')).toBe(true);
        expect(matchesTerm(`x${phrase}`, single(phrase), 'contains')).toBe(false);
      }),
    );
  });
});

describe('filter and query properties', () => {
  it('not f keeps exactly the rows f drops, in order', () => {
    fc.assert(
      fc.property(filter, eventList, (f, list) => {
        const kept = new Set(rowsOf(query(f), list));
        expect(rowsOf(query(not(f)), list)).toEqual(rowsOf(query(), list).filter((r) => !kept.has(r)));
      }),
    );
  });

  it('a or b is the union and a and b the intersection, in order', () => {
    fc.assert(
      fc.property(filter, filter, eventList, (a, b, list) => {
        const all = rowsOf(query(), list);
        const ra = new Set(rowsOf(query(a), list));
        const rb = new Set(rowsOf(query(b), list));
        expect(rowsOf(query(or(a, b)), list)).toEqual(all.filter((r) => ra.has(r) || rb.has(r)));
        expect(rowsOf(query(and(a, b)), list)).toEqual(all.filter((r) => ra.has(r) && rb.has(r)));
      }),
    );
  });

  it('col: (a b) equals col: a or col: b, also for wildcard names', () => {
    fc.assert(
      fc.property(fc.constantFrom('a', 'tags[*]', '**'), stringTerm, stringTerm, eventList, (c, x, y, list) => {
        expect(rowsOf(query(match(c, ':', vor(x, y))), list)).toEqual(rowsOf(query(or(match(c, ':', x), match(c, ':', y))), list));
      }),
    );
  });

  it('head n is a prefix and tail n a suffix of the raw table', () => {
    fc.assert(
      fc.property(filter, eventList, fc.integer({ min: 1, max: 14 }), (f, list, n) => {
        const all = evaluateQuery(query(f), list).rows;
        expect(evaluateQuery(query(f, head(n)), list).rows).toEqual(all.slice(0, n));
        expect(evaluateQuery(query(f, tail(n)), list).rows).toEqual(all.slice(Math.max(0, all.length - n)));
      }),
    );
  });

  it('raw rows come oldest first', () => {
    fc.assert(
      fc.property(eventList, (list) => {
        const times = evaluateQuery(query(), list).rows.map((r) => BigInt(String(r['@svc.time_ns'])));
        expect(times).toEqual([...times].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
      }),
    );
  });

  it('groupbycount counts add up to the row count, most frequent first, and agree with stats', () => {
    fc.assert(
      fc.property(filter, eventList, columnName, (f, list, c) => {
        const n = evaluateQuery(query(f), list).rows.length;
        const groups = evaluateQuery(query(f, groupbycount(c)), list).rows;
        const counts = groups.map((r) => Number(r['@q.count']));
        expect(counts.reduce((s, x) => s + x, 0)).toBe(n);
        expect(counts).toEqual([...counts].sort((x, y) => y - x));
        const byStats = evaluateQuery(query(f, stats([], [c])), list).rows;
        const key = (r: Record<string, unknown>): string => JSON.stringify([r[c], r['@q.count']]);
        expect(new Set(byStats.map(key))).toEqual(new Set(groups.map(key)));
      }),
    );
  });

  it('a column filter looks only at its column: exists for a wildcard-only term, else the value matches', () => {
    fc.assert(
      fc.property(columnName, cellValue, stringTerm, (c, v, term) => {
        const count = (columns: Record<string, string | number | null>): number => evaluateQuery(query(match(c, ':', term)), [eventWith(columns)]).rows.length;
        const wildcardOnly = term.segments.length >= 2 && term.segments.every((s) => s === '');
        expect(count({})).toBe(0);
        expect(count({ other: v })).toBe(0);
        expect(count({ [c]: v })).toBe(wildcardOnly ? 1 : v === null ? 0 : Number(matchesTerm(v, term, 'contains')));
      }),
    );
  });
});

function eventWith(columns: Record<string, string | number | null>): EvalEvent {
  return { columns, tsNs: 0n, seq: 0n, sourceType: 'custom:generic', indexName: 'main', indexId: 'id-main', systemIndex: false };
}
