import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiLower } from '../../core/index.js';
import { matchesTerm } from '../evaluator/matches-term.js';
import { span } from '../evaluator/testing/ast-builder.js';
import { mayMatchNumberText, partialWords, prefilterTokens, wholeWordTerm, type TermPieces } from './term-pattern.js';

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

describe('partialWords', () => {
  it('takes the runs that may be parts of longer words, of four characters or more, ASCII case folded', () => {
    expect(partialWords(bare('', 'MimiKatz', ''))).toEqual(['mimikatz']);
    expect(partialWords(bare('cdqkil3ks', ''))).toEqual(['cdqkil3ks']);
    expect(partialWords(bare('', '.ps1'))).toEqual([]); // a whole word, looked up by prefilterTokens
    expect(partialWords(bare('', 'son'))).toEqual([]); // too short
    expect(partialWords(bare('c:\\users\\', '\\appdata', ''))).toEqual(['appdata']);
    expect(partialWords(bare('', 'Invoke_Expr', ''))).toEqual(['invoke_expr']);
    expect(partialWords(bare('', 'héllo', ''))).toEqual(['héllo']);
  });

  it('are in every text the term matches, ASCII case folded: a prefilter on them never loses a match', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'B', 'b', '_', '-', '.', ' ', 'é', '1'), maxLength: 8 });
    let matched = 0;
    fc.assert(
      // The value holds the term's pieces (case swapped at random) with text around and between
      // them, so that most terms match it.
      fc.property(fc.array(text, { minLength: 1, maxLength: 3 }), fc.array(text, { minLength: 4, maxLength: 4 }), fc.boolean(), (segments, fills, upper) => {
        const piece = (p: string) => (upper ? p.toUpperCase() : p);
        const value = `${fills[0]}${segments.map(piece).join(fills[1])}${fills[2]}`;
        const term = { kind: 'string' as const, quote: 'bare' as const, segments, span };
        if (!matchesTerm(value, term, 'contains')) return;
        const parts = partialWords({ segments, quote: 'bare' });
        if (parts.length > 0) matched++;
        for (const part of parts) expect(asciiLower(value)).toContain(part);
      }),
      { numRuns: 5_000 },
    );
    expect(matched).toBeGreaterThan(100);
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

describe('mayMatchNumberText', () => {
  it('is true for every piece of every number text: leaving number variants unread never loses a match', () => {
    const numberText = fc.oneof(
      fc.double({ noNaN: true }).map((n) => String(n)), // JavaScript's text: 1e+21, -0, Infinity
      fc.double({ noNaN: true }).map((n) => String(n).replace('e+', 'e')), // the engine's: 1e21
      fc.constantFrom('inf', '-inf', 'nan'),
    );
    const pieces = numberText.chain((text) =>
      fc.tuple(fc.nat(text.length), fc.nat(text.length), fc.nat(text.length)).map(([a, b, c]) => {
        const [start, cut, end] = [a, b, c].sort((x, y) => x - y);
        return [text.slice(start, cut), text.slice(cut, end)];
      }),
    );
    fc.assert(fc.property(pieces, (segments) => mayMatchNumberText(segments) && mayMatchNumberText([segments.join('').toUpperCase()])));
  });

  it('is false for a character no number text holds, or for two dots in all', () => {
    expect(mayMatchNumberText(['powershell'])).toBe(false);
    expect(mayMatchNumberText(['10.47.1.208'])).toBe(false);
    expect(mayMatchNumberText(['10.', '.208'])).toBe(false);
    expect(mayMatchNumberText(['1,5'])).toBe(false);
    expect(mayMatchNumberText(['１'])).toBe(false); // a full-width digit is not the ASCII one
    expect(mayMatchNumberText(['1.5'])).toBe(true);
    expect(mayMatchNumberText(['', '7'])).toBe(true);
    expect(mayMatchNumberText(['INF'])).toBe(true);
  });
});
