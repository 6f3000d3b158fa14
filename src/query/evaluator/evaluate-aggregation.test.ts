import { describe, expect, it } from 'vitest';
import { QueryAnalysisError } from '../../core/index.js';
import type { Command } from '../ast.js';
import type { EvalTable } from './eval-table.js';
import { evaluateQuery } from './evaluate-query.js';
import { events } from './testing/event-builder.js';
import { aggregate, call, compare, groupbycount, groupItem, item, match, query, stats, text, where } from './testing/ast-builder.js';

type Columns = Record<string, string | number | null>;
const run = (rows: Columns[], ...pipeline: Command[]): EvalTable => evaluateQuery(query(undefined, ...pipeline), events(...rows));

describe('count', () => {
  it('counts rows, 0 on empty input (D22)', () => {
    expect(run([{}, {}, {}], aggregate('count'))).toEqual({ columns: ['@q.count'], rows: [{ '@q.count': 3 }] });
    expect(run([], aggregate('count'))).toEqual({ columns: ['@q.count'], rows: [{ '@q.count': 0 }] });
  });
});

describe('groupbycount', () => {
  it('puts the most frequent first, ties by group values ascending; missing groups as null', () => {
    const rows: Columns[] = [{ s: 'b' }, { s: 'a' }, { s: 'c' }, { s: 'c' }, {}, { s: null }, { s: 2 }];
    expect(run(rows, groupbycount('s'))).toEqual({
      columns: ['s', '@q.count'],
      rows: [
        { s: null, '@q.count': 2 },
        { s: 'c', '@q.count': 2 },
        { s: 2, '@q.count': 1 },
        { s: 'a', '@q.count': 1 },
        { s: 'b', '@q.count': 1 },
      ],
    });
  });

  it('groups tuples by type and value', () => {
    const rows: Columns[] = [
      { a: 1, b: 'x' },
      { a: '1', b: 'x' },
      { a: 1, b: 'x' },
      { a: 1, b: 'y' },
    ];
    expect(run(rows, groupbycount('a', 'b')).rows).toEqual([
      { a: 1, b: 'x', '@q.count': 2 },
      { a: 1, b: 'y', '@q.count': 1 },
      { a: '1', b: 'x', '@q.count': 1 },
    ]);
  });

  it('gives no rows on empty input', () => {
    expect(run([], groupbycount('a'))).toEqual({ columns: ['a', '@q.count'], rows: [] });
  });
});

describe('countdistinct', () => {
  it('counts distinct tuples among rows with a non-null value', () => {
    expect(run([{ a: 1 }, { a: '1' }, { a: 1 }, { a: null }, {}], aggregate('countdistinct', 'a')).rows).toEqual([{ '@q.uniq': 2 }]);
    const pairs: Columns[] = [{ a: 1, b: null }, { a: null, b: 1 }, { a: 1 }, {}, { a: null, b: null }];
    expect(run(pairs, aggregate('countdistinct', 'a', 'b')).rows).toEqual([{ '@q.uniq': 2 }]);
  });

  it('gives 0 on empty input', () => {
    expect(run([], aggregate('countdistinct', 'a')).rows).toEqual([{ '@q.uniq': 0 }]);
  });
});

describe('max and min', () => {
  const mixed: Columns[] = [{ a: 3 }, { a: 'a' }, { a: null }, { a: 10 }, {}];
  it('orders null < numbers < strings for max; min counts null as greatest', () => {
    expect(run(mixed, aggregate('max', 'a'))).toEqual({ columns: ['@q.max'], rows: [{ '@q.max': 'a' }] });
    expect(run(mixed, aggregate('min', 'a'))).toEqual({ columns: ['@q.min'], rows: [{ '@q.min': 3 }] });
    expect(run([{ a: 9 }, { a: 10 }], aggregate('max', 'a')).rows).toEqual([{ '@q.max': 10 }]);
    expect(run([{ a: null }, {}], aggregate('min', 'a')).rows).toEqual([{ '@q.min': null }]);
  });

  it('compares tuples element by element and names the columns by position', () => {
    const rows: Columns[] = [
      { a: 1, b: 2 },
      { a: 2, b: 1 },
      { a: 2, b: null },
    ];
    expect(run(rows, aggregate('max', 'a', 'b'))).toEqual({ columns: ['@q.max[0]', '@q.max[1]'], rows: [{ '@q.max[0]': 2, '@q.max[1]': 1 }] });
    expect(run(rows, aggregate('min', 'b', 'a')).rows).toEqual([{ '@q.min[0]': 1, '@q.min[1]': 2 }]);
  });

  it('gives nulls on empty input', () => {
    expect(run([], aggregate('max', 'a', 'b')).rows).toEqual([{ '@q.max[0]': null, '@q.max[1]': null }]);
  });
});

describe('avg, sum, var', () => {
  const rows: Columns[] = [{ x: 1 }, { x: '2' }, { x: 'two' }, { x: null }, {}, { x: '3e0' }];
  it('use numbers and decimal strings only', () => {
    expect(run(rows, aggregate('sum', 'x'))).toEqual({ columns: ['@q.sum'], rows: [{ '@q.sum': 6 }] });
    expect(run(rows, aggregate('avg', 'x'))).toEqual({ columns: ['@q.avg'], rows: [{ '@q.avg': 2 }] });
    expect(run(rows, aggregate('var', 'x'))).toEqual({ columns: ['@q.var'], rows: [{ '@q.var': 1 }] });
  });

  it('give null without numeric values; var needs two', () => {
    for (const fn of ['sum', 'avg', 'var'] as const) {
      expect(run([{ x: 'a' }], aggregate(fn, 'x')).rows).toEqual([{ [`@q.${fn}`]: null }]);
      expect(run([], aggregate(fn, 'x')).rows).toEqual([{ [`@q.${fn}`]: null }]);
    }
    expect(run([{ x: 5 }], aggregate('var', 'x')).rows).toEqual([{ '@q.var': null }]);
  });

  it('give null rather than an infinite result', () => {
    expect(run([{ x: 1e308 }, { x: 1e308 }], aggregate('sum', 'x')).rows).toEqual([{ '@q.sum': null }]);
  });
});

describe('percentile (nearest rank)', () => {
  const oneToTen = Array.from({ length: 10 }, (_, i) => ({ x: 10 - i }));
  it.each([
    ['50', 5],
    ['90', 9],
    ['91', 10],
    ['0', 1],
    ['100', 10],
    ['5', 1],
  ])('p%s of 1..10 is %s', (rank, expected) => {
    expect(run(oneToTen, aggregate('percentile', rank, 'x'))).toEqual({ columns: ['@q.value'], rows: [{ '@q.value': expected }] });
  });

  it('computes the rank exactly: p99.9 of 1..1000 is 999, not 1000', () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => ({ x: i + 1 }));
    expect(run(thousand, aggregate('percentile', '99.9', 'x')).rows).toEqual([{ '@q.value': 999 }]);
  });

  it('returns a decimal string as its number, skips the rest, null when none', () => {
    expect(run([{ x: '7' }, { x: 'n/a' }], aggregate('percentile', '50', 'x')).rows).toEqual([{ '@q.value': 7 }]);
    expect(run([{ x: 'n/a' }], aggregate('percentile', '50', 'x')).rows).toEqual([{ '@q.value': null }]);
  });

  it('refuses a rank outside 0 to 100', () => {
    expect(() => run([{ x: 1 }], aggregate('percentile', '100.5', 'x'))).toThrow(QueryAnalysisError);
  });
});

describe('stats', () => {
  const rows: Columns[] = [{ host: 'b', ms: 10 }, { host: 'a', ms: 4 }, { host: 'b', ms: 30 }, { ms: 7 }, { host: 'a', ms: 8 }];

  it('gives group columns, @q.count, then one column per call, groups ascending', () => {
    const result = run(rows, stats([item(call('max', 'ms'), 'slowest'), item(call('var', 'ms')), item(call('percentile', '90', 'ms'))], ['host']));
    expect(result.columns).toEqual(['host', '@q.count', 'slowest', 'var(ms)', 'percentile(90, ms)']);
    expect(result.rows).toEqual([
      { host: null, '@q.count': 1, slowest: 7, 'var(ms)': null, 'percentile(90, ms)': 7 },
      { host: 'a', '@q.count': 2, slowest: 8, 'var(ms)': 8, 'percentile(90, ms)': 8 },
      { host: 'b', '@q.count': 2, slowest: 30, 'var(ms)': 200, 'percentile(90, ms)': 30 },
    ]);
  });

  it('prints default names canonically', () => {
    const result = run([], stats([item(call('count')), item(call('countdistinct', 'a', 'b')), item(call('max', 'user name'))]));
    expect(result.columns).toEqual(['@q.count', 'count()', 'countdistinct(a, b)', 'max(`user name`)']);
  });

  it('without by gives one row even on empty input: counts 0, others null (D22)', () => {
    const items = [item(call('count'), 'n'), item(call('countdistinct', 'a'), 'u'), item(call('max', 'a'), 'm'), item(call('avg', 'a'), 'v')];
    expect(run([], stats(items)).rows).toEqual([{ '@q.count': 0, n: 0, u: 0, m: null, v: null }]);
    expect(run([{ a: 2 }, { a: 4 }], stats(items)).rows).toEqual([{ '@q.count': 2, n: 2, u: 2, m: 4, v: 3 }]);
  });

  it('with by gives no rows on empty input', () => {
    expect(run([], stats([item(call('max', 'a'))], ['g']))).toEqual({ columns: ['g', '@q.count', 'max(a)'], rows: [] });
  });

  it('counts per group with no calls (`stats by foo`)', () => {
    expect(run([{ foo: 1 }, { foo: 1 }, { foo: 'x' }], stats([], ['foo'])).rows).toEqual([
      { foo: 1, '@q.count': 2 },
      { foo: 'x', '@q.count': 1 },
    ]);
  });

  it('adds no column for a bare group column among the items (spec examples 36, 37)', () => {
    const perUser = stats([item(call('count'), 'numReqs'), groupItem('arn')], ['arn']);
    const users = [{ arn: 'u1' }, { arn: 'u2' }, { arn: 'u1' }, { arn: 'u3' }, { arn: 'u1' }, { arn: 'u2' }];
    expect(run(users, perUser).columns).toEqual(['arn', '@q.count', 'numReqs']);
    const summary = stats([item(call('avg', 'numReqs')), item(call('percentile', '50', 'numReqs')), item(call('percentile', '90', 'numReqs'))]);
    expect(run(users, perUser, summary).rows).toEqual([{ '@q.count': 3, 'avg(numReqs)': 2, 'percentile(50, numReqs)': 2, 'percentile(90, numReqs)': 3 }]);
    expect(run(users, perUser, where(compare('numReqs', '>=', 2))).rows.map((r) => r['arn'])).toEqual(['u1', 'u2']);
  });

  it('refuses a tuple max', () => {
    expect(() => run([], stats([item(call('max', 'a', 'b'))]))).toThrow(/several values/);
  });

  it('keeps the first of two columns of one name', () => {
    const rows: Columns[] = [
      { h: 'x', a: 1 },
      { h: 'x', a: 5 },
    ];
    expect(run(rows, stats([item(call('max', 'a'), 'h'), item(call('max', 'a')), item(call('max', 'a'))], ['h']))).toEqual({
      columns: ['h', '@q.count', 'max(a)'],
      rows: [{ h: 'x', '@q.count': 2, 'max(a)': 5 }],
    });
    expect(run(rows, groupbycount('h', 'h'))).toEqual({ columns: ['h', '@q.count'], rows: [{ h: 'x', '@q.count': 2 }] });
  });
});

describe('where after an aggregation', () => {
  it('searches every column with free text, @index and @q.* included', () => {
    const result = run([{}, {}], groupbycount('@index'), where(text('main')));
    expect(result.rows).toEqual([{ '@index': 'main', '@q.count': 2 }]);
    expect(run([{}, {}], aggregate('count'), where(text(2))).rows).toHaveLength(1);
  });

  it('lets wildcard names reach every column, unlike on raw events', () => {
    expect(run([{}], groupbycount('@index'), where(match('*', ':', 'main'))).rows).toHaveLength(1);
    expect(run([{}], where(match('*', ':', 'main'))).rows).toHaveLength(0);
  });

  it('filters on @q.count (spec example 56)', () => {
    expect(run([{}, {}], aggregate('count'), where(compare('@q.count', '>', 1))).rows).toHaveLength(1);
    expect(run([{}, {}], aggregate('count'), where(compare('@q.count', '>', 2))).rows).toHaveLength(0);
  });
});
