import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

/** Feeds the chunks and returns every line, the unterminated last one included. */
function splitAll(chunks: readonly string[]): string[] {
  const splitter = new LineSplitter();
  const lines = chunks.flatMap((chunk) => splitter.push(chunk));
  const last = splitter.finish();
  return last === null ? lines : [...lines, last];
}

/** Cuts a text at the given offsets (sorted, deduplicated, clamped). */
function cut(text: string, offsets: readonly number[]): string[] {
  const points = [...new Set(offsets.map((o) => Math.min(o, text.length)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(text.slice(from, p));
    from = p;
  }
  chunks.push(text.slice(from));
  return chunks;
}

describe('LineSplitter', () => {
  it('splits on \\n and returns blank lines too, so callers can number lines', () => {
    expect(splitAll(['a\n\nb\n'])).toEqual(['a', '', 'b']);
  });

  it('returns a last line that has no final newline', () => {
    expect(splitAll(['a\nb'])).toEqual(['a', 'b']);
  });

  it('returns nothing for empty input', () => {
    expect(splitAll([])).toEqual([]);
    expect(splitAll(['', ''])).toEqual([]);
  });

  it('drops the \\r of CRLF, even when \\r and \\n arrive in different chunks', () => {
    expect(splitAll(['a\r\nb\r', '\nc\r\n'])).toEqual(['a', 'b', 'c']);
  });

  it('keeps a lone \\r as content', () => {
    expect(splitAll(['a\rb\n'])).toEqual(['a\rb']);
  });

  it('drops a byte order mark at the start of the input only', () => {
    expect(splitAll(['', '\uFEFF{"a":1}\n\uFEFFx'])).toEqual(['{"a":1}', '\uFEFFx']);
  });

  it('joins a line spread over many chunks', () => {
    expect(splitAll(['{"a', '":', '1', '}\n{"b":2}'])).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('gives the same lines however the input is cut into chunks', () => {
    const text = fc.array(fc.oneof(fc.string(), fc.constantFrom('\n', '\r\n', '\r', '\uFEFF', '')), { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.nat({ max: 200 }), { maxLength: 12 }), (input, offsets) => {
        expect(splitAll(cut(input, offsets))).toEqual(splitAll([input]));
      }),
      { numRuns: 500 },
    );
  });

  it('matches a plain split of the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'é', '\n', '\r', '\uFEFF', ' ') }), (input) => {
        const expected = input.replace(/^\uFEFF/, '').split('\n');
        if (expected[expected.length - 1] === '') expected.pop();
        expect(splitAll([input])).toEqual(expected.map((l) => l.replace(/\r$/, '')));
      }),
    );
  });
});
