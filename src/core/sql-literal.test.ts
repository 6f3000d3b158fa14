import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { sqlIdentifier, sqlInteger, sqlNumber, sqlString, sqlStringList, sqlTimestampNs, toWellFormed } from './sql-literal.js';

// Exact output; the engine round trip is in sql-literal.int.test.ts.
describe('sqlString', () => {
  it.each([
    ['', "''"],
    ['plain', "'plain'"],
    ["it's", "'it\\'s'"],
    ['back\\slash', "'back\\\\slash'"],
    ['line\nbreak\ttab\rcr', "'line\\nbreak\\ttab\\rcr'"],
    ['nul\u0000bell\u0007del\u007f', "'nul\\x00bell\\x07del\\x7f'"],
    ['back`tick', "'back\\`tick'"],
    ['ünï 😀 {x:String}', "'ünï 😀 {x:String}'"],
  ])('quotes %j', (value, expected) => {
    expect(sqlString(value)).toBe(expected);
  });

  it('replaces lone surrogates with U+FFFD and keeps pairs', () => {
    expect(sqlString('a\uD800b\uDC00c\uD83D\uDE00')).toBe("'a\uFFFDb\uFFFDc😀'");
    expect(toWellFormed('\uDBFF')).toBe('\uFFFD');
  });
});

describe('sqlIdentifier', () => {
  it('back-quotes and escapes', () => {
    expect(sqlIdentifier('a b')).toBe('`a b`');
    expect(sqlIdentifier('we`ird\\')).toBe('`we\\`ird\\\\`');
    expect(sqlIdentifier('list[0]')).toBe('`list[0]`');
  });

  it('refuses an empty name', () => {
    expect(() => sqlIdentifier('')).toThrow(ValidationError);
  });
});

describe('numbers', () => {
  it('writes 64-bit integers exactly and parenthesizes negatives', () => {
    expect(sqlInteger(0)).toBe('0');
    expect(sqlInteger(18_446_744_073_709_551_615n)).toBe('18446744073709551615');
    expect(sqlInteger(-9_223_372_036_854_775_808n)).toBe('(-9223372036854775808)');
    expect(`1-${sqlInteger(-1)}`).toBe('1-(-1)');
  });

  it('refuses integers out of range or inexact', () => {
    expect(() => sqlInteger(2n ** 64n)).toThrow(ValidationError);
    expect(() => sqlInteger(-(2n ** 63n) - 1n)).toThrow(ValidationError);
    expect(() => sqlInteger(1.5)).toThrow(ValidationError);
    expect(() => sqlInteger(2 ** 53)).toThrow(ValidationError);
  });

  it('writes finite floats and refuses the rest', () => {
    expect(sqlNumber(1.5)).toBe('1.5');
    expect(sqlNumber(-2)).toBe('(-2)');
    expect(sqlNumber(-0)).toBe('0');
    // read as the integer 9223372036854776000 if written as JavaScript prints it
    expect(sqlNumber(2 ** 63)).toBe('9.223372036854776e18');
    expect(sqlNumber(-(2 ** 53))).toBe('(-9.007199254740992e15)');
    expect(sqlNumber(1e300)).toBe('1e300');
    expect(() => sqlNumber(Number.NaN)).toThrow(ValidationError);
    expect(() => sqlNumber(Number.POSITIVE_INFINITY)).toThrow(ValidationError);
  });

  it('builds timestamps and lists from literals', () => {
    expect(sqlTimestampNs(-1n)).toBe("fromUnixTimestamp64Nano(toInt64((-1)), 'UTC')");
    expect(sqlStringList(['a', "b'"])).toBe("('a', 'b\\'')");
    expect(() => sqlStringList([])).toThrow(ValidationError);
  });
});
