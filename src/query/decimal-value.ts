/**
 * Exact values of decimal text (D3, D8, D17): what `< <= > >=` compare. A number literal, a
 * string that is entirely a decimal number and a stored number (by its canonical text) all read
 * as one exact decimal, so `9007199254740993 > 9007199254740992` holds and digits beyond a
 * double's 17 are never rounded away. The compiler writes the same reading in SQL
 * (compile-compare.ts); the evaluator uses this one.
 */

/**
 * A decimal's exact value: `sign × 0.digits × 10^exponent`, `digits` without leading or trailing
 * zeros (empty for zero, whose sign is 0 and exponent 0).
 */
export interface DecimalValue {
  readonly sign: -1 | 0 | 1;
  readonly digits: string;
  readonly exponent: bigint;
}

/**
 * Decimal text, split as the SQL reads it: sign, integer digits, fraction digits, exponent sign,
 * exponent digits. The one pattern for D17's "entirely a decimal number".
 */
export const decimalTextPattern = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?)([0-9]+))?$/;

/**
 * Exponents are read as at most this many digits; longer ones count as ±10^17. Any string shorter
 * than 10^12 characters then compares exactly unless both sides have exponents beyond 10^17.
 */
export const maxExponentDigits = 17;
const clampedExponent = 10n ** BigInt(maxExponentDigits);

/** The exact value of decimal text, or null when the text is not entirely a decimal number. */
export function decimalValue(text: string): DecimalValue | null {
  const m = decimalTextPattern.exec(text);
  if (m === null) return null;
  const [, minus = '', int = '', frac = '', expSign = '', expText = ''] = m;
  const expDigits = expText.replace(/^0+/, '');
  const all = int + frac;
  const significant = all.replace(/^0+/, '');
  const digits = significant.replace(/0+$/, '');
  if (digits === '') return { sign: 0, digits: '', exponent: 0n };
  const leadingZeros = all.length - significant.length;
  const exp = expDigits.length > maxExponentDigits ? clampedExponent : BigInt(expDigits === '' ? '0' : expDigits);
  return { sign: minus === '-' ? -1 : 1, digits, exponent: BigInt(int.length - leadingZeros) + (expSign === '-' ? -exp : exp) };
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareDecimals(a: DecimalValue, b: DecimalValue): -1 | 0 | 1 {
  if (a.sign !== b.sign) return a.sign < b.sign ? -1 : 1;
  if (a.sign === 0) return 0;
  const magnitude = a.exponent !== b.exponent ? (a.exponent < b.exponent ? -1 : 1) : a.digits === b.digits ? 0 : a.digits < b.digits ? -1 : 1;
  // equal magnitudes stay 0, not -0 (which callers comparing with Object.is would not take for 0)
  return a.sign === 1 || magnitude === 0 ? magnitude : (-magnitude as -1 | 1);
}

/** A stored number's exact value: that of its canonical text (the shortest that reads back as it). */
export function numberDecimal(n: number): DecimalValue {
  const value = decimalValue(String(n));
  // eslint-disable-next-line no-restricted-syntax -- internal invariant: callers pass finite numbers
  if (value === null) throw new Error(`not a finite number: ${n}`);
  return value;
}

/**
 * The number equal to a number literal: the double whose canonical text has exactly the
 * literal's value (`0.1`, `1e2`, `1.50`), or null when there is none (`9007199254740993`,
 * `1e400`): then no stored number equals the literal, only a string of its digits can.
 */
export function exactNumber(text: string): number | null {
  const value = decimalValue(text);
  const n = Number(text);
  if (value === null || !Number.isFinite(n)) return null;
  return compareDecimals(numberDecimal(n), value) === 0 ? n : null;
}

/**
 * The value of a number literal in a scalar expression (D26), like ingest reads a JSON number
 * (D3): an integer beyond 2^53 is the string of its digits, so no digit is lost; a number too
 * large for a double is null, as overflowing arithmetic is. Other literals are the nearest double.
 */
export function scalarNumberLiteral(text: string): number | string | null {
  const n = Number(text);
  if (!Number.isFinite(n)) return null;
  if (/^-?[0-9]+$/.test(text) && !Number.isSafeInteger(n)) return BigInt(text).toString();
  return n;
}
