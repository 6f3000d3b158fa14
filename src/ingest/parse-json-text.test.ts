import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from './parse-json-lossless.js';
import { notAnObjectReason, parseJsonText, quoteUnsafeIntegers } from './parse-json-text.js';
import { acceptedByJsonParse, mutated, trickyJsonText } from './testing/json-arbitraries.js';

describe('quoteUnsafeIntegers', () => {
  it.each([
    ['a Windows Keywords value', '{"Keywords":-9223372036854775808,"x":1}', '{"Keywords":"-9223372036854775808","x":1}'],
    ['in arrays, after whitespace', '[ 18446744073709551615,\n 9007199254740993]', '[ "18446744073709551615",\n "9007199254740993"]'],
    ['the whole text', '12345678901234567890', '"12345678901234567890"'],
  ])('quotes %s', (_name, text, expected) => {
    expect(quoteUnsafeIntegers(text)).toBe(expected);
  });

  it.each([
    ['safe 16-digit integers', '{"a":9007199254740991}'],
    ['digits inside strings', '{"a":"x:12345678901234567890,"}'],
    ['digits after an escaped quote inside a string', '{"a":"\\":12345678901234567890"}'],
    ['fractions with long digit runs (Zeek rtt)', '{"rtt":0.000431060791015625}'],
    ['big floats', '{"a":12345678901234567890.5,"b":12345678901234567890e3}'],
    ['leading zeros, which must stay invalid', '{"a":01234567890123456789}'],
    ['digits inside a key', '{"12345678901234567890":1}'],
  ])('leaves %s alone', (_name, text) => {
    expect(quoteUnsafeIntegers(text)).toBe(text);
  });

  it('returns the very same string when there is nothing to quote', () => {
    const text = '{"a":"1234567890123456789012"}';
    expect(quoteUnsafeIntegers(text)).toBe(text);
  });
});

describe('parseJsonText', () => {
  it('reads unsafe integers as exact digit strings through the fast path', () => {
    expect(parseJsonText('{"Keywords":-9223372036854775808}')).toEqual({ ok: true, value: { Keywords: '-9223372036854775808' } });
  });

  it('explains failures with the lossless parser', () => {
    expect(parseJsonText('{"a":1,}')).toMatchObject({ ok: false, problem: 'unexpected token "}"', offset: 7 });
  });

  describe('properties', () => {
    it('gives exactly what the lossless parser gives, on tricky JSON', () => {
      fc.assert(
        fc.property(trickyJsonText, (text) => {
          expect(parseJsonText(text)).toEqual(parseJsonLossless(text));
        }),
        { numRuns: 1000 },
      );
    });

    it('accepts exactly what JSON.parse accepts, on near-JSON text', () => {
      fc.assert(
        fc.property(
          trickyJsonText.chain((text) => fc.oneof(fc.constant(text), mutated(text))),
          (text) => {
            expect(parseJsonText(text).ok).toBe(acceptedByJsonParse(text));
          },
        ),
        { numRuns: 2000 },
      );
    });
  });
});

describe('notAnObjectReason', () => {
  it.each([
    [[1], 'expected a JSON object, got an array'],
    ['x', 'expected a JSON object, got a string'],
    [1, 'expected a JSON object, got a number'],
    [true, 'expected a JSON object, got a boolean'],
    [null, 'expected a JSON object, got null'],
  ])('%j', (value, expected) => {
    expect(notAnObjectReason(value)).toBe(expected);
  });
});
