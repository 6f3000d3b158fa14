import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeJsonDocumentFailure, describeJsonFailure, parseJsonLossless, parseJsonSequence, type JsonParseResult } from './parse-json-lossless.js';
import { acceptedByJsonParse, mutated } from './testing/json-arbitraries.js';

/**
 * The oracle: JSON.parse, except that an integer token that is not a safe integer comes back as
 * its digit string. For text printed by JSON.stringify a number's token is `String(n)`, so the
 * token is integer-shaped exactly when that string has no `.` or `e`.
 */
function expectedFromStringified(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => (typeof value === 'number' && !Number.isSafeInteger(value) && /^-?\d+$/.test(String(value)) ? String(value) : value));
}

function value(result: JsonParseResult): unknown {
  if (!result.ok) throw new Error(`expected success, got ${result.problem}`);
  return result.value;
}

function failure(text: string): string {
  const result = parseJsonLossless(text);
  if (result.ok) throw new Error(`expected failure for ${text}`);
  return describeJsonFailure(result);
}

describe('parseJsonLossless', () => {
  it('keeps integers beyond 2^53 as exact digit strings', () => {
    expect(value(parseJsonLossless('{"k":-9223372036854775808,"u":18446744073709551615}'))).toEqual({
      k: '-9223372036854775808',
      u: '18446744073709551615',
    });
  });

  it('keeps safe integers, floats and exponents as numbers', () => {
    expect(value(parseJsonLossless('[9007199254740991,-9007199254740991,12345678901234567890.5,1e400,1.5e300,-0,0.1]'))).toEqual([
      9007199254740991,
      -9007199254740991,
      12345678901234567890.5,
      Infinity,
      1.5e300,
      -0,
      0.1,
    ]);
  });

  it('treats 2^53 itself as unsafe (it cannot tell 2^53 + 1 apart)', () => {
    expect(value(parseJsonLossless('[9007199254740992,9007199254740993]'))).toEqual(['9007199254740992', '9007199254740993']);
  });

  it('reads escapes, surrogate pairs and lone surrogates like JSON.parse', () => {
    const text = String.raw`["a\"b\\c\/d\b\f\n\r\t", "\u00e9\ud83d\ude80", "\ud800"]`;
    expect(value(parseJsonLossless(text))).toEqual(JSON.parse(text));
  });

  it('defines __proto__ as an own property, as JSON.parse does', () => {
    const parsed = value(parseJsonLossless('{"__proto__":{"x":1}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
  });

  it('keeps the last of duplicate keys, at the first key position', () => {
    expect(Object.entries(value(parseJsonLossless('{"a":1,"b":2,"a":3}')) as object)).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });

  describe('explains failures with a column', () => {
    it.each([
      ['{"a":1,}', 'unexpected token "}" at column 8'],
      ['{"a" 1}', 'unexpected token "1" at column 6'],
      ['{a:1}', 'unexpected token "a" at column 2'],
      ['{"a":01}', 'unexpected token "1" at column 7'],
      ['{"a":1.}', 'unexpected token "}" at column 8'],
      ['{"a":-}', 'unexpected token "}" at column 7'],
      ['{"a":tru}', 'unexpected token "}" at column 9'],
      ['{"a":"\\x"}', 'invalid escape at column 7'],
      ['{"a":"\\u12G4"}', 'invalid \\u escape at column 7'],
      ['{"a":"tab\there"}', 'control character in string at column 10'],
      ['{"a":1} x', 'unexpected data after the JSON value at column 9'],
      ['{"a":1', 'unexpected end of input at column 7'],
      ['{"a":"abc', 'unterminated string at column 6'],
      ['', 'unexpected end of input at column 1'],
      ['   ', 'unexpected end of input at column 4'],
    ])('%j → %s', (text, expected) => {
      expect(failure(text)).toBe(expected);
    });

    it('marks a value cut short as atEnd, a wrong one not', () => {
      expect(parseJsonLossless('{"Records": [')).toMatchObject({ ok: false, atEnd: true });
      expect(parseJsonLossless('{"a": "x')).toMatchObject({ ok: false, atEnd: true });
      expect(parseJsonLossless('{"a": x')).toMatchObject({ ok: false, atEnd: false });
    });

    it('locates a document failure by line and column', () => {
      const text = '{\n  "a": 1,\n  "b": ]\n}';
      const result = parseJsonLossless(text);
      if (result.ok) throw new Error('expected failure');
      expect(describeJsonDocumentFailure(result, text)).toBe('unexpected token "]" at line 3 column 8');
    });

    it('reports absurd nesting instead of overflowing the stack', () => {
      const deep = '['.repeat(200_000) + ']'.repeat(200_000);
      expect(parseJsonLossless(deep)).toMatchObject({ ok: false, problem: 'nesting too deep' });
    });
  });

  describe('parseJsonSequence', () => {
    it('reads whitespace-separated values (jq output)', () => {
      expect(parseJsonSequence('{"a":1}\n{\n  "b": 2\n} [3] "x"')).toEqual({ ok: true, values: [{ a: 1 }, { b: 2 }, [3], 'x'] });
    });
    it('reads an empty text as no values', () => {
      expect(parseJsonSequence(' \n ')).toEqual({ ok: true, values: [] });
    });
  });

  describe('properties', () => {
    it('agrees with JSON.parse on any JSON value, except unsafe integers come back as exact digit strings', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (json) => {
          const text = JSON.stringify(json);
          expect(value(parseJsonLossless(text))).toEqual(expectedFromStringified(text));
        }),
        { numRuns: 500 },
      );
    });

    it('agrees on pretty-printed text too', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (json) => {
          const text = JSON.stringify(json, null, 2);
          expect(value(parseJsonLossless(text))).toEqual(expectedFromStringified(text));
        }),
      );
    });

    it('keeps every digit of any big integer', () => {
      const bigInteger = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).filter((n) => n > 2n ** 53n || n < -(2n ** 53n));
      fc.assert(
        fc.property(bigInteger, (n) => {
          expect(value(parseJsonLossless(`{"n":${n}}`))).toEqual({ n: String(n) });
        }),
      );
    });

    it('accepts exactly the texts JSON.parse accepts', () => {
      const nearJson = fc.oneof(
        fc.string(),
        fc.jsonValue().chain((json) => mutated(JSON.stringify(json))),
      );
      fc.assert(
        fc.property(nearJson, (text) => {
          expect(parseJsonLossless(text).ok).toBe(acceptedByJsonParse(text));
        }),
        { numRuns: 2000 },
      );
    });
  });
});
