import { describe, expect, it } from 'vitest';
import { parseQueryOrThrow } from '../index.js';
import { goldenContext } from '../compiler/testing/golden-context.js';
import { analyzeQuery } from './analyze-query.js';
import { maxPredicates } from './query-size.js';

/** The analysis problems of a query, as `message @ column`. */
function problems(text: string, fieldPaths: readonly string[] = goldenContext.fieldPaths): string[] {
  const { diagnostics } = analyzeQuery(parseQueryOrThrow(text), { ...goldenContext, fieldPaths });
  return diagnostics.map((d) => `${d.message} @ ${d.span?.start.column ?? '?'}`);
}

const words = (n: number, prefix = 'w'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('the size of a query', () => {
  it(`takes ${maxPredicates} terms and values, counted across the filter, lists and where`, () => {
    expect(problems(words(maxPredicates).join(' '))).toEqual([]);
    expect(problems(`host: (${words(600).join(' ')}) ${words(300).join(' or ')} | where ${words(100).join(' ')}`)).toEqual([]);
  });

  it('refuses one more, at the term or value that goes past the limit', () => {
    const text = `host: (${words(600).join(' ')}) ${words(300).join(' or ')} | where ${words(101).join(' ')}`;
    const last = text.lastIndexOf('w100') + 1;
    expect(problems(text)).toEqual([
      `the query holds 1001 terms and values, more than the ${maxPredicates} one query may (each value of a list counts, once per column a wildcard name stands for); split it into several queries @ ${last}`,
    ]);
  });

  it('counts a value once per column a wildcard name stands for', () => {
    const paths = Array.from({ length: 500 }, (_, i) => `field${i}`);
    expect(problems('field*: (a b)', paths)).toEqual([]);
    expect(problems('field*: (a b c)', paths)[0]).toMatch(/^the query holds 1500 terms and values, .* @ 14$/);
  });
});
