import { inEventRange } from './civil-time.js';

/**
 * Unit cut-offs for epoch numbers, by the magnitude of the integer part. Every second count of
 * 1900..2262 is below 1e11, so seconds are always right; a millisecond count below 1e11 (between
 * 1966-10-31 and 1973-03-03) is read as seconds, and so on down the ladder. Documented in
 * docs/ingest.md.
 */
const secondsBelow = 1e11;
const millisecondsBelow = 1e14;
const microsecondsBelow = 1e17;

/** Integer-digit counts matching the cut-offs above (1e11 has 12 digits). */
const maxSecondsDigits = String(secondsBelow).length - 1;
const maxMillisecondsDigits = String(millisecondsBelow).length - 1;
const maxMicrosecondsDigits = String(microsecondsBelow).length - 1;

/**
 * Reads an epoch number given as decimal text (`1588205198`, `1588205198.123456`, `-1e9`,
 * `1588205198123`) as exact nanoseconds, choosing s / ms / µs / ns by magnitude. Digits finer
 * than a nanosecond are truncated. Returns null when the text is not a plain decimal number or
 * the instant is outside 1900..2262.
 */
export function parseEpoch(text: string): bigint | null {
  const n = text.length;
  let i = 0;
  let negative = false;
  const sign = text.charCodeAt(0);
  if (sign === 45 || sign === 43) {
    negative = sign === 45;
    i++;
  }
  const intStart = i;
  while (i < n && isDigit(text.charCodeAt(i))) i++;
  let intDigits = text.slice(intStart, i);
  let fracDigits = '';
  if (i < n && text.charCodeAt(i) === 46) {
    const fracStart = ++i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    fracDigits = text.slice(fracStart, i);
  }
  if (intDigits.length === 0 && fracDigits.length === 0) return null;
  if (i < n && (text.charCodeAt(i) === 101 || text.charCodeAt(i) === 69)) {
    const shifted = applyExponent(text, i + 1, intDigits, fracDigits);
    if (shifted === null) return null;
    [intDigits, fracDigits] = shifted;
  } else if (i !== n) {
    return null;
  }
  intDigits = stripLeadingZeros(intDigits);
  const scale = scaleDigits(intDigits.length);
  const nsText = intDigits + fracDigits.slice(0, scale).padEnd(scale, '0');
  const magnitude = BigInt(nsText === '' ? '0' : nsText);
  const ns = negative ? -magnitude : magnitude;
  return inEventRange(ns) ? ns : null;
}

/** Decimal digits that turn the epoch's unit into nanoseconds, by integer-part length. */
function scaleDigits(intLength: number): number {
  if (intLength <= maxSecondsDigits) return 9;
  if (intLength <= maxMillisecondsDigits) return 6;
  if (intLength <= maxMicrosecondsDigits) return 3;
  return 0;
}

/** Moves the decimal point by the exponent that starts at `at`; null when malformed or absurd. */
function applyExponent(text: string, at: number, intDigits: string, fracDigits: string): [string, string] | null {
  let i = at;
  let expNegative = false;
  const sign = text.charCodeAt(i);
  if (sign === 45 || sign === 43) {
    expNegative = sign === 45;
    i++;
  }
  const expStart = i;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  if (i === expStart || i !== text.length || i - expStart > 3) return null;
  const exponent = Number(text.slice(expStart, i)) * (expNegative ? -1 : 1);
  const digits = intDigits + fracDigits;
  const point = intDigits.length + exponent;
  if (point <= 0) return ['', '0'.repeat(-point) + digits];
  if (point >= digits.length) return [digits + '0'.repeat(point - digits.length), ''];
  return [digits.slice(0, point), digits.slice(point)];
}

function stripLeadingZeros(digits: string): string {
  let i = 0;
  while (i < digits.length && digits.charCodeAt(i) === 48) i++;
  return i === 0 ? digits : digits.slice(i);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
