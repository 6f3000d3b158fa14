import { describe, expect, it } from 'vitest';
import { withQuery } from './query-history.js';

describe('recent queries', () => {
  it('puts the last query first without repeating it', () => {
    expect(withQuery(['b', 'a'], 'a')).toEqual(['a', 'b']);
    expect(withQuery(['a'], '  c ')).toEqual(['c', 'a']);
  });

  it('keeps a bounded list and ignores empty queries', () => {
    expect(withQuery(['a', 'b', 'c'], 'd', 3)).toEqual(['d', 'a', 'b']);
    expect(withQuery(['a'], '   ')).toEqual(['a']);
  });
});
