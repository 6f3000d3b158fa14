/**
 * The cost of a pattern is bounded before it reaches the engine (docs/query-language.md, "Limits"):
 * a term with 2,000 wildcards once kept the engine busy for 104 s over one 1 MB value. Each term
 * is built here from the figures that decide (its wildcards and the UTF-8 bytes of its text), so
 * the expectation follows from the documented limits, not from the checker.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQueryOrThrow } from '../index.js';
import { goldenContext } from '../compiler/testing/golden-context.js';
import { analyzeQuery } from './analyze-query.js';
import { maxPatternBytes, maxPatternWildcards } from './pattern-cost.js';

/** The analysis problems of a query, as `message @ column-endColumn`. */
function problems(text: string): string[] {
  const { diagnostics } = analyzeQuery(parseQueryOrThrow(text), goldenContext);
  return diagnostics.map((d) => `${d.message} @ ${d.span?.start.column ?? '?'}-${d.span?.end.column ?? '?'}`);
}

// One literal character of each UTF-8 length, none that a bare word would need to quote.
const letters = ['a', 'é', '中', '😀'];
const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

/** A double-quoted term: `wildcards` stars between pieces made of `letters[k]` repeated. */
function term(wildcards: number, pieceLength: number, k: number): { text: string; bytes: number } {
  const piece = (letters[k] as string).repeat(pieceLength);
  const text = `"${Array.from({ length: wildcards + 1 }, () => piece).join('*')}"`;
  return { text, bytes: utf8(piece) * (wildcards + 1) + wildcards };
}

const shapes = fc.record({
  wildcards: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: maxPatternWildcards - 2, max: maxPatternWildcards + 2 })),
  pieceLength: fc.integer({ min: 0, max: 40 }),
  k: fc.integer({ min: 0, max: letters.length - 1 }),
  where: fc.constantFrom('free', 'column', 'list', 'where', 'whole'),
});

function inQuery(termText: string, where: string): { query: string; at: number } {
  const prefix = { free: 'x ', column: 'host: ', list: 'host: (a ', where: '* | where host: ', whole: 'host = ' }[where] as string;
  const suffix = where === 'list' ? ' b)' : '';
  return { query: `${prefix}${termText}${suffix}`, at: prefix.length + 1 };
}

describe('the cost of a pattern', () => {
  it(`accepts a term of at most ${maxPatternWildcards} wildcards and ${maxPatternBytes} bytes, and refuses any other at its position`, () => {
    fc.assert(
      fc.property(shapes, ({ wildcards, pieceLength, k, where }) => {
        const { text, bytes } = term(wildcards, pieceLength, k);
        const { query, at } = inQuery(text, where);
        const found = problems(query);
        const span = `@ ${at}-${at + text.length}`; // spans count UTF-16 units
        const expected: string[] = [];
        if (wildcards > maxPatternWildcards) expected.push(`the term holds ${wildcards} wildcards, more than the ${maxPatternWildcards} one term may; use fewer ${span}`);
        if (bytes > maxPatternBytes) {
          expected.push(
            `the term is ${bytes} bytes long as a pattern (each wildcard counts 1, each character its UTF-8 bytes), more than the ${maxPatternBytes} one term may; shorten it ${span}`,
          );
        }
        expect(found).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('reports every term past a limit at once, in the event filter and in where', () => {
    const long = `"${'a'.repeat(maxPatternBytes + 1)}"`;
    const starry = `*${'a*'.repeat(maxPatternWildcards)}`;
    const text = `${long} ok | where msg: ${starry}`;
    const found = problems(text);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^the term is 1001 bytes long as a pattern .* @ 1-1004$/);
    expect(found[1]).toBe(`the term holds 65 wildcards, more than the 64 one term may; use fewer @ ${text.indexOf(starry) + 1}-${text.length + 1}`);
  });

  it('counts a number term by its text', () => {
    expect(problems(`n = ${'1'.repeat(maxPatternBytes)}`)).toEqual([]);
    expect(problems(`n = ${'1'.repeat(maxPatternBytes + 1)}`)[0]).toMatch(/^the term is 1001 bytes long/);
  });
});
