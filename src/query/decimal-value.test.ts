import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDecimals, decimalValue, exactNumber, numberDecimal, scalarNumberLiteral } from './decimal-value.js';

const cmp = (a: string, b: string): number => {
  const x = decimalValue(a);
  const y = decimalValue(b);
  if (x === null || y === null) throw new Error('not decimal');
  return compareDecimals(x, y);
};

/** Decimal text of an integer with optional leading zeros, fraction zeros or exponent. */
const spelled = (n: bigint, zeros: number, form: number): string => {
  const sign = n < 0n ? '-' : '';
  const digits = (n < 0n ? -n : n).toString();
  if (form === 1) return `${sign}${'0'.repeat(zeros)}${digits}`;
  if (form === 2) return `${sign}${digits}.${'0'.repeat(zeros + 1)}`;
  if (form === 3) return `${sign}${digits}${'0'.repeat(zeros)}e-${zeros}`;
  if (form === 4 && digits.length > 1) return `${sign}${digits[0]}.${digits.slice(1)}e+${digits.length - 1}`;
  return `${sign}${digits}`;
};

describe('decimalValue and compareDecimals', () => {
  it('compare equal negative values as 0, not -0', () => {
    expect(Object.is(cmp('-19', '-19.0'), 0)).toBe(true);
  });

  it('order integers of any size exactly, however they are spelled', () => {
    const big = fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n });
    fc.assert(
      fc.property(big, big, fc.nat(3), fc.nat(4), fc.nat(4), (a, b, zeros, fa, fb) => {
        expect(cmp(spelled(a, zeros, fa), spelled(b, zeros, fb))).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
    );
  });

  it('order finite doubles as JavaScript does', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ noNaN: true, noDefaultInfinity: true }), (a, b) => {
        expect(compareDecimals(numberDecimal(a), numberDecimal(b))).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
    );
  });

  it('tell apart what Float64 cannot', () => {
    expect(cmp('9007199254740993', '9007199254740992')).toBe(1);
    expect(cmp('12345678901234567890', '12345678901234567890.000')).toBe(0);
    expect(cmp('-9223372036854775809', '-9223372036854775808')).toBe(-1);
    expect(cmp('0.10000000000000000001', '0.1')).toBe(1);
    expect(cmp('1e-400', '0')).toBe(1);
    expect(cmp('-0', '0.0e7')).toBe(0);
    expect(cmp('1e400', '1e399')).toBe(1);
  });

  it('read only whole decimal numbers', () => {
    for (const text of ['', '-', '1.', '.5', '+1', '1e', '0x10', '1_000', ' 1', 'Infinity', 'NaN', '1e+']) expect(decimalValue(text)).toBeNull();
  });
});

describe('exactNumber', () => {
  it('is the double whose canonical text has the literal value, else null', () => {
    expect(exactNumber('0.1')).toBe(0.1);
    expect(exactNumber('1.50')).toBe(1.5);
    expect(exactNumber('1e2')).toBe(100);
    expect(exactNumber('-0')).toBe(-0);
    expect(exactNumber('9007199254740992')).toBe(9007199254740992);
    expect(exactNumber('9007199254740993')).toBeNull();
    expect(exactNumber('0.10000000000000000001')).toBeNull();
    expect(exactNumber('1e400')).toBeNull();
  });
});

describe('scalarNumberLiteral', () => {
  it('keeps integers beyond 2^53 as digit strings, as ingest does (D3)', () => {
    expect(scalarNumberLiteral('9007199254740991')).toBe(9007199254740991);
    expect(scalarNumberLiteral('9007199254740992')).toBe('9007199254740992');
    expect(scalarNumberLiteral('-00012345678901234567890')).toBe('-12345678901234567890');
    expect(scalarNumberLiteral('9007199254740993.0')).toBe(9007199254740992);
    expect(scalarNumberLiteral('1e20')).toBe(1e20);
    expect(scalarNumberLiteral('1e400')).toBeNull();
  });
});
