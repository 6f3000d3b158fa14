/** The canonical text of values and the "entirely a decimal number" test the docs rely on. */

/**
 * The text of a value (docs "Events and columns"): a string is itself; a number is its shortest
 * round-trip decimal form with a bare exponent (`1e21`, not JS's `1e+21`), which is also what
 * ClickHouse's toString(Float64) writes.
 */
export function valueText(v: number | string): string {
  if (typeof v === 'string') return v;
  return String(v).replace('e+', 'e');
}

// D17 and the numeric aggregations: an optional minus, digits, optional fraction and exponent.
// `\d` without the `u` flag is ASCII 0-9 only, as intended.
const decimalNumber = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** Whether a string is entirely a decimal number (so comparisons and aggregations use it). */
export function isDecimalText(text: string): boolean {
  return decimalNumber.test(text);
}

/** A value as a number for `< <= > >=` and numeric aggregations, or null when it is not one. */
export function numericValue(v: string | number | boolean | null): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && isDecimalText(v)) return Number(v);
  return null;
}
