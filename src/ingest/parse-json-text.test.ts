import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from './parse-json-lossless.js';
import { longDigitRunEnd, notAnObjectReason, parseJsonText, quoteUnsafeIntegers } from './parse-json-text.js';
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

describe('longDigitRunEnd', () => {
  /** Every run's end, as the scan gives them one after another. */
  const runEnds = (text: string): number[] => {
    const ends: number[] = [];
    for (let end = longDigitRunEnd(text, 0); end >= 0; end = longDigitRunEnd(text, end)) ends.push(end);
    return ends;
  };

  it.each([
    ['a Keywords value', '{"Keywords":-9223372036854775808}', [32]],
    ['a run of exactly 16 at the start', '1234567890123456', [16]],
    ['a run of 15 only', 'x123456789012345y', []],
    ['two runs, the first too short', '123456789012345 12345678901234567', [33]],
    ['a run of 16 one character after a short run read at offset 15', 'abcdefghijkl1234 1234567890123456 x', [33]],
    ['non-ASCII digits, which are not JSON digits', '١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦', []],
  ])('finds %s', (_name, text, ends) => {
    expect(runEnds(text)).toEqual(ends);
  });

  it('finds the runs of 16 or more digits that /\\d{16,}/g finds, in any text', () => {
    // Mostly digits, so runs of about 16 are common and often one character apart.
    const digit = fc.constantFrom(...'0123456789');
    const other = fc.constantFrom('"', ':', '-', '.', 'e', ' ', 'é');
    const digitHeavy = fc.array(fc.oneof({ arbitrary: digit, weight: 15 }, { arbitrary: other, weight: 1 }), { maxLength: 200 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.oneof(digitHeavy, fc.string({ maxLength: 200 })), (text) => {
        expect(runEnds(text)).toEqual([...text.matchAll(/\d{16,}/g)].map((match) => match.index + match[0].length));
      }),
      { numRuns: 3000 },
    );
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
