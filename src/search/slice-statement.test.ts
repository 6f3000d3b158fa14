import { describe, expect, it } from 'vitest';
import { partialWordsMinRows, sliceStatement } from './slice-statement.js';

describe('sliceStatement', () => {
  it('keeps the engine defaults while nothing is known, and for a slice expected to fill its limit', () => {
    expect(sliceStatement(1_000_000, null, 1001)).toEqual({ settings: {}, partialWords: false });
    expect(sliceStatement(1_000_000, 1001, 1001)).toEqual({ settings: {}, partialWords: false });
  });

  it('turns top-K filtering off for a slice expected to hold fewer matches than its limit', () => {
    expect(sliceStatement(10_000, 0, 1001).settings).toEqual({ use_top_k_dynamic_filtering: 0 });
    expect(sliceStatement(10_000, 1000.5, 1001).settings).toEqual({ use_top_k_dynamic_filtering: 0 });
  });

  it('looks up parts of words only in such a slice, and only over enough events to pay', () => {
    expect(sliceStatement(partialWordsMinRows, 0, 1001).partialWords).toBe(true);
    expect(sliceStatement(partialWordsMinRows - 1, 0, 1001).partialWords).toBe(false);
    expect(sliceStatement(partialWordsMinRows, 2000, 1001).partialWords).toBe(false);
  });
});
