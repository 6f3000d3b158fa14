/**
 * The one audited family of functions that turn values into inline ClickHouse SQL. chDB
 * serializes parameter binding process-wide, so hot paths cannot bind parameters: every value
 * that reaches SQL text goes through here, and the property test runs each against the engine.
 */
import { ValidationError } from './errors.js';

// Lone UTF-16 surrogates have no UTF-8 encoding; left alone they would reach the engine as
// U+FFFD anyway (Buffer encoding) — replacing them here keeps that explicit and testable.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// Backslash, both quote characters, and every C0 control plus DEL. Escaping the back quote in
// string literals and the single quote in identifiers is harmless and keeps one code path.
const needsEscape = /[\\'`\u0000-\u001f\u007f]/g;

function escapeChar(ch: string): string {
  switch (ch) {
    case '\\':
      return '\\\\';
    case "'":
      return "\\'";
    case '`':
      return '\\`';
    case '\n':
      return '\\n';
    case '\t':
      return '\\t';
    case '\r':
      return '\\r';
    default:
      // \xHH is read as one byte by ClickHouse; every char here is below 0x80, so one byte is the
      // whole UTF-8 encoding and no raw control byte (NUL above all) ever enters the SQL text.
      return `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
  }
}

/** Replaces lone surrogates with U+FFFD: the string the engine will store for `value`. */
export function toWellFormed(value: string): string {
  return value.replace(loneSurrogate, '\uFFFD');
}

function escapeText(value: string): string {
  return toWellFormed(value).replace(needsEscape, escapeChar);
}

/** Quotes a string as a ClickHouse single-quoted literal that reads back as exactly `value`. */
export function sqlString(value: string): string {
  return `'${escapeText(value)}'`;
}

/** Quotes a name (column, table, JSON path segment) as a back-quoted ClickHouse identifier. */
export function sqlIdentifier(name: string): string {
  if (name.length === 0) throw new ValidationError('sql identifier is empty');
  return `\`${escapeText(name)}\``;
}

const int64Min = -(2n ** 63n);
const uint64Max = 2n ** 64n - 1n;

/**
 * Writes an integer literal (Int64 or UInt64 range). Negative values are parenthesized so that
 * `a-${lit}` can never become the comment opener `--`.
 */
export function sqlInteger(value: bigint | number): string {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new ValidationError(`sql integer is not a safe integer: ${value}`);
  }
  const big = BigInt(value);
  if (big < int64Min || big > uint64Max) throw new ValidationError(`sql integer out of 64-bit range: ${big}`);
  return big < 0n ? `(${big})` : big.toString();
}

/** Writes a finite number literal (Float64); NaN and infinities are refused. */
export function sqlNumber(value: number): string {
  if (!Number.isFinite(value)) throw new ValidationError(`sql number is not finite: ${value}`);
  // JavaScript writes 2^63 as 9223372036854776000, which the engine would read as that integer, not
  // as the double; from 2^53 on, an exponent makes the literal a Float64 of exactly this value.
  const text = Object.is(value, -0) ? '0' : Math.abs(value) >= 2 ** 53 ? value.toExponential().replace('e+', 'e') : String(value);
  return value < 0 ? `(${text})` : text;
}

/** Writes `(v1, v2, ...)` of string literals for `x IN ...`; the list must not be empty. */
export function sqlStringList(values: readonly string[]): string {
  if (values.length === 0) throw new ValidationError('sql list is empty');
  return `(${values.map(sqlString).join(', ')})`;
}

/** A DateTime64(9, 'UTC') expression for nanoseconds since the epoch. */
export function sqlTimestampNs(ns: bigint): string {
  return `fromUnixTimestamp64Nano(toInt64(${sqlInteger(ns)}), 'UTC')`;
}

/** A DateTime64(3, 'UTC') expression for milliseconds since the epoch. */
export function sqlTimestampMs(ms: number): string {
  return `fromUnixTimestamp64Milli(toInt64(${sqlInteger(ms)}), 'UTC')`;
}
