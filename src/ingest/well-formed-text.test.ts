import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonText } from './parse-json-text.js';
import { wellFormedJsonText, wellFormedValue } from './well-formed-text.js';

/** JSON text of a string with every code unit written as an escape, in either letter case. */
function escapedEverywhere(text: string, upper: boolean): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const hex = text.charCodeAt(i).toString(16).padStart(4, '0');
    out += `\\u${upper ? hex.toUpperCase() : hex}`;
  }
  return out + '"';
}

const anyUnits = fc.string({ unit: 'binary', maxLength: 12 });

describe('wellFormedJsonText', () => {
  it.each([
    [String.raw`{"a":"\ud800"}`, String.raw`{"a":"\ufffd"}`],
    [String.raw`{"a":"a\ud83d"}`, String.raw`{"a":"a\ufffd"}`],
    [String.raw`{"a":"\udc00"}`, String.raw`{"a":"\ufffd"}`],
    [String.raw`{"a":"\uDC00\uD800x"}`, String.raw`{"a":"\ufffd\ufffdx"}`],
    [String.raw`{"\ud800":1}`, String.raw`{"\ufffd":1}`],
    [String.raw`{"a":"\ud83d\ude00"}`, String.raw`{"a":"\ud83d\ude00"}`],
    [String.raw`{"a":"\\ud800"}`, String.raw`{"a":"\\ud800"}`],
    [String.raw`{"a":"\\\ud800"}`, String.raw`{"a":"\\\ufffd"}`],
    [String.raw`{"a":"\ud800\\udc00"}`, String.raw`{"a":"\ufffd\\udc00"}`],
    [String.raw`{"a":"\"\ud800"}`, String.raw`{"a":"\"\ufffd"}`],
    ['{"a":"\ud800 literal"}', '{"a":"\ufffd literal"}'],
  ])('%s → %s', (text, expected) => {
    expect(wellFormedJsonText(text)).toBe(expected);
  });

  it('gives the text of the same strings with U+FFFD for each lone surrogate, however they were escaped', () => {
    fc.assert(
      fc.property(anyUnits, fc.boolean(), (s, upper) => {
        for (const text of [JSON.stringify(s), escapedEverywhere(s, upper)]) {
          const fixed = wellFormedJsonText(text);
          expect(JSON.parse(fixed)).toBe(s.toWellFormed());
          expect(fixed === text).toBe(s.isWellFormed());
        }
      }),
    );
  });
});

describe('wellFormedValue', () => {
  it('replaces lone surrogates in nested strings and keys, keeping everything else', () => {
    const parsed = parseJsonText(String.raw`{"k\ud800":["\udc00",1,null,true,{"__proto__":"\ud83d\ude00"}],"big":12345678901234567890}`);
    expect(parsed.ok).toBe(true);
    const value = wellFormedValue((parsed as { value: unknown }).value) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['k\ufffd', 'big']);
    expect(value['k\ufffd']).toEqual(['\ufffd', 1, null, true, JSON.parse('{"__proto__":"😀"}')]);
    expect(value.big).toBe('12345678901234567890');
  });
});
