import { describe, expect, it } from 'vitest';
import { QueryAnalysisError } from '../../core/index.js';
import type { Command } from '../ast.js';
import type { EvalTable } from './eval-table.js';
import { evaluateQuery } from './evaluate-query.js';
import { events } from './testing/event-builder.js';
import { aggregate, bin, compare, evalCommand, groupbycount, head, lit, match, num, query, ref, rename, table, tail, text, where } from './testing/ast-builder.js';

type Columns = Record<string, string | number | null>;
const run = (rows: Columns[], ...pipeline: Command[]): EvalTable => evaluateQuery(query(undefined, ...pipeline), events(...rows));
const userColumns = (t: EvalTable): string[] => t.columns.filter((c) => !c.startsWith('@'));

describe('eval', () => {
  it('appends a computed column (spec example 32)', () => {
    const list = events({ 'response.status': 502, 'request.elapsed_ms': 1500 }, { 'response.status': 200, 'request.elapsed_ms': 10 });
    const q = query(match('response.status', '=', num(502)), evalCommand(['elapsed_s', bin(ref('request.elapsed_ms'), '/', lit(1000))]));
    const result = evaluateQuery(q, list);
    expect(result.rows.map((r) => r['elapsed_s'])).toEqual([1.5]);
    expect(result.columns.at(-1)).toBe('elapsed_s');
  });

  it('replaces an existing column in place and writes booleans as strings', () => {
    const result = run([{ n: 1, m: 2 }], table('n', 'm'), evalCommand(['n', bin(ref('n'), '+', lit(1))], ['big', bin(ref('n'), '>', lit(1))]));
    expect(result).toEqual({ columns: ['n', 'm', 'big'], rows: [{ n: 2, m: 2, big: 'true' }] });
  });

  it('applies assignments left to right', () => {
    const result = run([{}], table(), evalCommand(['a', lit(1)], ['b', bin(ref('a'), '+', lit(1))], ['a', lit('x')]));
    expect(result).toEqual({ columns: ['a', 'b'], rows: [{ a: 'x', b: 2 }] });
  });

  it('adds to the fixed columns of an aggregated table, even with no rows', () => {
    expect(run([{}, {}], aggregate('count'), evalCommand(['x', bin(ref('@q.count'), '*', lit(2))]))).toEqual({
      columns: ['@q.count', 'x'],
      rows: [{ '@q.count': 2, x: 4 }],
    });
    expect(run([], groupbycount('a'), evalCommand(['x', lit(1)])).columns).toEqual(['a', '@q.count', 'x']);
  });

  it('refuses a wildcard target', () => {
    expect(() => run([{}], evalCommand(['a*', lit(1)]))).toThrow(QueryAnalysisError);
  });
});

describe('where', () => {
  it('keeps the rows that pass, in order', () => {
    const result = run([{ n: 1 }, { n: 5 }, { n: '7' }, { n: 'x' }], where(compare('n', '>=', 5)));
    expect(result.rows.map((r) => r['n'])).toEqual([5, '7']);
  });

  it('skips system columns with free text on raw events', () => {
    expect(run([{ a: 'x' }], where(text('main'))).rows).toHaveLength(0);
    expect(run([{ a: 'x' }], where(match('@index', ':', 'main'))).rows).toHaveLength(1);
  });

  it('takes == and !=', () => {
    const rows: Columns[] = [{ n: 5 }, { n: '5' }, {}];
    expect(run(rows, where(compare('n', '==', 5))).rows.map((r) => r['n'])).toEqual([5]);
    expect(run(rows, where(compare('n', '!=', 5))).rows.map((r) => r['n'])).toEqual(['5', undefined]);
  });
});

describe('table (D27)', () => {
  it('keeps the listed columns in order, a missing one as null (spec example 62)', () => {
    const result = run([{ a: 1, b: 2 }, { a: 3 }], head(1), table('@index', '@index_id', 'b', 'zz'));
    expect(result).toEqual({
      columns: ['@index', '@index_id', 'b', 'zz'],
      rows: [{ '@index': 'main', '@index_id': '00000000-0000-4000-8000-000000000001', b: 2, zz: null }],
    });
  });

  it('lists a repeated column once', () => {
    expect(run([{ a: 1 }], table('a', 'a'))).toEqual({ columns: ['a'], rows: [{ a: 1 }] });
  });

  it('resolves aliases and refuses wildcards', () => {
    expect(run([{}], table('%ingest.source_type')).columns).toEqual(['@svc.source_type']);
    expect(() => run([{}], table('a.*'))).toThrow(/wildcard column name a\.\* is not allowed in table/);
  });
});

describe('rename (D27)', () => {
  it('renames in place, replacing an existing target', () => {
    expect(run([{ a: 1, b: 2, c: 3 }], table('a', 'b', 'c'), rename(['c', 'a']))).toEqual({
      columns: ['b', 'a'],
      rows: [{ b: 2, a: 3 }],
    });
  });

  it('makes the target null when the source is missing', () => {
    expect(run([{ b: 2 }], table('b'), rename(['a', 'b'], ['x', 'y']))).toEqual({
      columns: ['b', 'y'],
      rows: [{ b: null, y: null }],
    });
  });

  it('applies renames left to right', () => {
    expect(run([{ a: 1 }], table('a'), rename(['a', 'b'], ['b', 'c'])).rows).toEqual([{ c: 1 }]);
  });

  it('renames raw-event columns row by row', () => {
    const result = run([{ a: 1, k: 'x' }, { k: 'y' }], rename(['a', 'z']));
    expect(result.rows.map((r) => [r['z'], r['a']])).toEqual([
      [1, undefined],
      [null, undefined],
    ]);
    expect(userColumns(result)).toEqual(['z', 'k']);
  });
});

describe('head and tail (D25)', () => {
  const twelve = Array.from({ length: 12 }, (_, i) => ({ i }));
  const ids = (t: EvalTable): unknown[] => t.rows.map((r) => r['i']);

  it('keep the first or last n rows, 10 by default, order kept', () => {
    expect(ids(run(twelve, head()))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ids(run(twelve, tail()))).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(ids(run(twelve, head(3)))).toEqual([0, 1, 2]);
    expect(ids(run(twelve, tail(2)))).toEqual([10, 11]);
    expect(ids(run(twelve.slice(0, 2), tail(5)))).toEqual([0, 1]);
  });

  it('follow the aggregation order (spec example 27)', () => {
    const logins = [{ u: 'a' }, { u: 'b' }, { u: 'b' }, { u: 'c' }, { u: 'c' }, { u: 'c' }];
    expect(run(logins, groupbycount('u'), head(2)).rows).toEqual([
      { u: 'c', '@q.count': 3 },
      { u: 'b', '@q.count': 2 },
    ]);
  });

  it('list only the columns of the rows kept on raw events (D28)', () => {
    expect(userColumns(run([{ a: 1 }, { b: 2 }], head(1)))).toEqual(['a']);
  });

  it('refuse a count outside 1 to 10000', () => {
    expect(() => run([], head(0))).toThrow(QueryAnalysisError);
    expect(() => run([], tail(10_001))).toThrow(QueryAnalysisError);
  });
});
