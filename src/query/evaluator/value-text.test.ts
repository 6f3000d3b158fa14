import { describe, expect, it } from 'vitest';
import { isDecimalText, numericValue, valueText } from './value-text.js';

describe('valueText', () => {
  it.each([
    [1.5, '1.5'],
    [100, '100'],
    [1e21, '1e21'],
    [1.5e300, '1.5e300'],
    [1e-7, '1e-7'],
    [-2.5e-10, '-2.5e-10'],
    [123456789012345680000, '123456789012345680000'],
    [0.1 + 0.2, '0.30000000000000004'],
  ])('writes the number %s as %s', (n, text) => {
    expect(valueText(n)).toBe(text);
  });

  it('keeps strings as they are', () => {
    expect(valueText('1e+21')).toBe('1e+21');
    expect(valueText('')).toBe('');
  });
});

describe('decimal text (D17)', () => {
  it.each(['0', '-1', '12.50', '1e5', '1E-5', '-3.25e+2', '007'])('%s is a decimal number', (t) => {
    expect(isDecimalText(t)).toBe(true);
  });
  it.each(['', ' 1', '1 ', '+1', '.5', '5.', '1e', '0x10', 'Infinity', 'NaN', '1_000', '١٢'])('%j is not', (t) => {
    expect(isDecimalText(t)).toBe(false);
  });
  it('reads numbers and decimal strings, nothing else', () => {
    expect(numericValue(3)).toBe(3);
    expect(numericValue('-3.25e+2')).toBe(-325);
    expect(numericValue('3 apples')).toBeNull();
    expect(numericValue(true)).toBeNull();
    expect(numericValue(null)).toBeNull();
  });
});
