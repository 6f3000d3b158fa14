import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberText, valuesText } from './values-text.js';

describe('valuesText', () => {
  it('joins string values and number texts with NUL, never column names', () => {
    expect(valuesText({ 'user.name': 'Ann Lee', code: 200, ratio: 0.25 })).toBe('Ann Lee\u0000200\u00000.25');
  });

  it('is empty for an event without values', () => {
    expect(valuesText({})).toBe('');
  });
});

describe('numberText', () => {
  it('prints exponents without a plus sign, like ClickHouse toString(Float64)', () => {
    expect([1e21, 1.5e300, 1e-7, 123.5, -3, 2 ** 53].map(numberText)).toEqual(['1e21', '1.5e300', '1e-7', '123.5', '-3', '9007199254740992']);
  });

  it('round-trips every finite double', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => Number(numberText(x)) === x));
  });
});
