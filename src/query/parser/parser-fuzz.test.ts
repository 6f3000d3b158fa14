import { describe, expect, it } from 'vitest';
import { parseQuery, parseScalar } from './parser.js';
import { checkParse, createRandom, fuzzText } from '../testing/parser-fuzz.js';

describe('the parser under random input', () => {
  it('never throws, and always returns a tree that round-trips or diagnostics with real positions', () => {
    const seed = 20_240_601;
    const random = createRandom(seed);
    const failures: string[] = [];
    for (let i = 0; i < 20_000 && failures.length < 5; i++) {
      const text = fuzzText(random);
      const problem = checkParse(text);
      if (problem) failures.push(`${JSON.stringify(text)}: ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  it('stays fast on large and deeply nested input', () => {
    const inputs = [
      '('.repeat(100_000),
      'not '.repeat(50_000) + 'a',
      'a '.repeat(100_000),
      `* | eval x = ${'1 + '.repeat(20_000)}1`,
      '"'.repeat(100_001),
      `a: ${'('.repeat(50_000)}`,
    ];
    for (const text of inputs) {
      const started = performance.now();
      parseQuery(text);
      parseScalar(text);
      // Linear work is a few hundred milliseconds here; a blowup would take far longer.
      expect(performance.now() - started, text.slice(0, 20)).toBeLessThan(3_000);
      expect(checkParse(text)).toBeNull();
    }
  });
});
