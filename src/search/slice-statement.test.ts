import { describe, expect, it } from 'vitest';
import { partialWordsMinRows, sliceStatement } from './slice-statement.js';

describe('sliceStatement', () => {
  it('keeps the engine top-K filtering while nothing is known, and for a slice expected to fill its limit', () => {
    expect(sliceStatement(1_000_000, null, 1001).settings).toEqual({});
    expect(sliceStatement(1_000_000, 1001, 1001).settings).toEqual({});
  });

  it('turns top-K filtering off for a slice expected to hold fewer matches than its limit', () => {
    expect(sliceStatement(10_000, 0, 1001).settings).toEqual({ use_top_k_dynamic_filtering: 0 });
    expect(sliceStatement(10_000, 1000.5, 1001).settings).toEqual({ use_top_k_dynamic_filtering: 0 });
  });

  it('looks up parts of words in a slice over enough events to pay, whatever it is expected to hold', () => {
    expect(sliceStatement(partialWordsMinRows, 0, 1001).partialWords).toBe(true);
    expect(sliceStatement(partialWordsMinRows, null, 1001).partialWords).toBe(true);
    expect(sliceStatement(partialWordsMinRows, 2000, 1001).partialWords).toBe(true);
    expect(sliceStatement(partialWordsMinRows - 1, 0, 1001).partialWords).toBe(false);
  });
});
