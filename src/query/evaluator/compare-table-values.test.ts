import { describe, expect, it } from 'vitest';
import { compareForMin, compareTableValues, compareTuples, compareUtf8, tupleKey } from './compare-table-values.js';

describe('compareTableValues', () => {
  it('orders null < numbers < strings', () => {
    const sorted = ['a', 3, null, '', -1, 'B'].sort(compareTableValues);
    expect(sorted).toEqual([null, -1, 3, '', 'B', 'a']);
  });

  it('compares numbers numerically, not as text', () => {
    expect(compareTableValues(9, 10)).toBeLessThan(0);
    expect(compareTableValues(-0, 0)).toBe(0);
  });

  it('compares strings by UTF-8 bytes', () => {
    expect(compareTableValues('10', '9')).toBeLessThan(0);
    expect(compareTableValues('a', 'aa')).toBeLessThan(0);
    expect(compareTableValues('Z', 'a')).toBeLessThan(0);
    expect(compareTableValues('é', 'z')).toBeGreaterThan(0);
    // U+FF5E is below U+1F600 in UTF-8 although its UTF-16 unit 0xFF5E is above 0xD83D
    expect('\uff5e' < '😀').toBe(false);
    expect(compareUtf8('\uff5e', '😀')).toBeLessThan(0);
  });
});

describe('compareForMin', () => {
  it('counts null as the greatest value', () => {
    expect([null, 'a', 2].sort(compareForMin)).toEqual([2, 'a', null]);
  });
});

describe('compareTuples: the examples of the max page', () => {
  it.each([
    [[1], [2]],
    [['a'], ['aa']],
    [
      [1, 2],
      [2, 1],
    ],
    [
      [1, 1],
      [1, 2],
    ],
    [
      ['a', 'ca'],
      ['ab', 'a'],
    ],
    [
      ['a', 2],
      ['ab', 1],
    ],
    [
      [1, null],
      [1, 2],
    ],
  ])('%j < %j', (a, b) => {
    expect(compareTuples(a, b)).toBeLessThan(0);
    expect(compareTuples(b, a)).toBeGreaterThan(0);
  });
});

describe('tupleKey', () => {
  it('tells types apart and equates equal values', () => {
    expect(tupleKey([1, 'a'])).toBe(tupleKey([1, 'a']));
    expect(tupleKey([1])).not.toBe(tupleKey(['1']));
    expect(tupleKey([null])).not.toBe(tupleKey(['null']));
    expect(tupleKey(['a,b'])).not.toBe(tupleKey(['a', 'b']));
    expect(tupleKey([0])).toBe(tupleKey([-0]));
  });
});
