import { describe, expect, it } from 'vitest';
import { QueryAnalysisError } from '../../core/index.js';
import type { Scalar } from '../ast.js';
import type { ScalarValue, TableValue } from './eval-table.js';
import { evaluateScalar, toTableValue } from './evaluate-scalar.js';
import { bin, fn, lit, neg, ref, snot } from './testing/ast-builder.js';

const row: Record<string, TableValue> = {
  number_of_fenceposts: 10,
  total_count: 3,
  'animal:species': 'cat',
  name: 'Biscuit',
  'us_west-1': 'oregon',
  nothing: null,
  text: 'Hello, Wörld 😀',
  '@svc.source_type': 'aws:cloudtrail',
};
const value = (e: Scalar): ScalarValue => evaluateScalar(e, row);

describe('the spec examples 39-54', () => {
  it.each<[string, Scalar, ScalarValue]>([
    ['1 + 1', bin(lit(1), '+', lit(1)), 2],
    ['-(2 * 3)', neg(bin(lit(2), '*', lit(3))), -6],
    ['true and false', bin(lit(true), 'and', lit(false)), false],
    ['not true', snot(lit(true)), false],
    ['"foo"', lit('foo'), 'foo'],
    ['number_of_fenceposts - 1', bin(ref('number_of_fenceposts'), '-', lit(1)), 9],
    ['`animal:species` == "cat" and name == "Biscuit"', bin(bin(ref('animal:species'), '==', lit('cat')), 'and', bin(ref('name'), '==', lit('Biscuit'))), true],
    ['(1 + 2) * 3', bin(bin(lit(1), '+', lit(2)), '*', lit(3)), 9],
    ['(true or false) and false', bin(bin(lit(true), 'or', lit(false)), 'and', lit(false)), false],
    ['total_count - 1', bin(ref('total_count'), '-', lit(1)), 2],
    ['`us_west-1`', ref('us_west-1'), 'oregon'],
    ['not 1', snot(lit(1)), null],
    ['true and "false"', bin(lit(true), 'and', lit('false')), null],
    ['"cat" + "dog"', bin(lit('cat'), '+', lit('dog')), null],
    ['"abc" < "bbc"', bin(lit('abc'), '<', lit('bbc')), true],
    ['1 >= 1', bin(lit(1), '>=', lit(1)), true],
  ])('%s', (_, expr, expected) => {
    expect(value(expr)).toBe(expected);
  });
});

describe('operators', () => {
  it('does arithmetic on two numbers only; dividing by zero or overflowing is null', () => {
    expect(value(bin(lit(7), '/', lit(2)))).toBe(3.5);
    expect(value(bin(lit(7), '/', lit(0)))).toBeNull();
    expect(value(bin(lit(1e308), '*', lit(10)))).toBeNull();
    expect(value(bin(lit('1'), '+', lit(1)))).toBeNull();
    expect(value(bin(ref('nothing'), '+', lit(1)))).toBeNull();
    expect(value(bin(ref('missing'), '+', lit(1)))).toBeNull();
    expect(value(neg(lit('1')))).toBeNull();
  });

  it('compares with == and != by type and value', () => {
    expect(value(bin(lit(1), '==', lit('1')))).toBe(false);
    expect(value(bin(lit(null), '==', lit(null)))).toBe(true);
    expect(value(bin(ref('missing'), '==', lit(null)))).toBe(true);
    expect(value(bin(lit(1), '!=', lit('1')))).toBe(true);
    expect(value(bin(lit(true), '==', lit('true')))).toBe(false);
  });

  it('orders two numbers or two strings (UTF-8 bytes), else null', () => {
    expect(value(bin(lit(2), '<', lit(10)))).toBe(true);
    expect(value(bin(lit('2'), '<', lit('10')))).toBe(false);
    expect(value(bin(lit('\uff5e'), '<', lit('😀')))).toBe(true);
    expect(value(bin(lit(1), '<', lit('2')))).toBeNull();
    expect(value(bin(lit(null), '<=', lit(null)))).toBeNull();
  });

  it('needs booleans for and, or, not', () => {
    expect(value(bin(lit(false), 'and', lit(null)))).toBeNull();
    expect(value(bin(lit(true), 'or', lit(null)))).toBeNull();
    expect(value(bin(lit(false), 'or', lit(true)))).toBe(true);
    expect(value(bin(lit(false), 'or', lit(false)))).toBe(false);
    expect(value(bin(lit(true), 'and', lit(true)))).toBe(true);
    expect(value(snot(lit(null)))).toBeNull();
  });

  it('reads aliased system columns', () => {
    expect(value(ref('%ingest.source_type'))).toBe('aws:cloudtrail');
    expect(value(ref('@scnr.source_type'))).toBe('aws:cloudtrail');
  });

  it('refuses a wildcard column name', () => {
    expect(() => value(ref('a.*'))).toThrow(QueryAnalysisError);
  });
});

describe('functions (D26)', () => {
  it.each<[string, Scalar, ScalarValue]>([
    ['if true', fn('if', lit(true), lit('a'), lit('b')), 'a'],
    ['if false', fn('if', lit(false), lit('a'), lit('b')), 'b'],
    ['if non-boolean', fn('if', lit('true'), lit('a'), lit('b')), null],
    ['coalesce', fn('coalesce', ref('missing'), ref('nothing'), lit(0), lit(1)), 0],
    ['coalesce all null', fn('coalesce', lit(null)), null],
    ['math.abs', fn('math.abs', lit(-2.5)), 2.5],
    ['math.abs of a string', fn('math.abs', lit('-2')), null],
    ['math.round half up', fn('math.round', lit(2.5)), 3],
    ['math.round half away from zero', fn('math.round', lit(-2.5)), -3],
    ['math.round below half', fn('math.round', lit(0.49999999999999994)), 0],
    ['math.floor', fn('math.floor', lit(-1.5)), -2],
    ['math.ceil', fn('math.ceil', lit(-1.5)), -1],
    ['lower ASCII only', fn('lower', lit('ÀBC-Déf')), 'Àbc-déf'],
    ['upper ASCII only', fn('upper', lit('àbc-ß')), 'àBC-ß'],
    ['lower of a number', fn('lower', lit(1)), null],
    ['len counts code points', fn('len', ref('text')), 14],
    ['len of a number', fn('len', lit(12)), null],
    ['concat', fn('concat', lit('n='), lit(1e21), lit(' '), lit(0.5), lit(true)), 'n=1e21 0.5true'],
    ['concat with null', fn('concat', lit('a'), ref('missing')), null],
  ])('%s', (_, expr, expected) => {
    expect(value(expr)).toBe(expected);
  });

  it('refuses unknown functions and wrong argument counts', () => {
    expect(() => value(fn('sqrt', lit(4)))).toThrow(/unknown scalar function sqrt/);
    expect(() => value(fn('if', lit(true), lit(1)))).toThrow(/if takes 3 arguments, not 2/);
    expect(() => value(fn('concat'))).toThrow(/at least 1/);
    expect(() => value(fn('toString', lit(4)))).toThrow(QueryAnalysisError);
  });
});

describe('toTableValue', () => {
  it('writes booleans as strings and keeps the rest', () => {
    expect([true, false, 1, 'x', null].map(toTableValue)).toEqual(['true', 'false', 1, 'x', null]);
  });
});
