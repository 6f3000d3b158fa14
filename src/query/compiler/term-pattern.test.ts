import { describe, expect, it } from 'vitest';
import { prefilterTokens, wholeWordTerm, type TermPieces } from './term-pattern.js';

const bare = (...segments: string[]): TermPieces => ({ segments, quote: 'bare' });

describe('prefilterTokens', () => {
  it('takes the words of the language (D9): `_` joins, other ASCII punctuation splits', () => {
    expect(prefilterTokens(bare('item_id=817343'))).toEqual(['item_id', '817343']);
    expect(prefilterTokens(bare('héllo-wörld'))).toEqual(['héllo', 'wörld']);
  });

  it('leaves out runs that touch a wildcard, and folds ASCII case only', () => {
    expect(prefilterTokens(bare('App_3-', 'x'))).toEqual(['app_3']);
    expect(prefilterTokens(bare('', 'son'))).toEqual([]);
    expect(prefilterTokens(bare('ÉCOLE'))).toEqual(['École']);
  });
});

describe('wholeWordTerm', () => {
  it('is the word for a term that is one word, bare or single-quoted', () => {
    expect(wholeWordTerm(bare('user_admin'))).toBe('user_admin');
    expect(wholeWordTerm({ segments: ['Admin'], quote: 'single' })).toBe('Admin');
    expect(wholeWordTerm(bare('😀'))).toBe('😀');
  });

  it('is null for separators, wildcards, the empty term, and case-sensitive letters', () => {
    expect(wholeWordTerm(bare('a-b'))).toBeNull();
    expect(wholeWordTerm(bare('app', ''))).toBeNull();
    expect(wholeWordTerm(bare(''))).toBeNull();
    expect(wholeWordTerm({ segments: ['Admin'], quote: 'double' })).toBeNull();
    // Without ASCII letters, case cannot matter.
    expect(wholeWordTerm({ segments: ['42_é'], quote: 'double' })).toBe('42_é');
  });
});
