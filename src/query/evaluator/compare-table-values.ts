/** The value order of the docs ("Details every implementation follows"). */
import type { TableValue } from './eval-table.js';

const utf8 = new TextEncoder();

/** Compares two strings by their UTF-8 bytes (not UTF-16 units, which order astral characters wrongly). */
export function compareUtf8(a: string, b: string): number {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return Math.sign(x.length - y.length);
}

// null < numbers < strings
function typeRank(v: TableValue): number {
  if (v === null) return 0;
  return typeof v === 'number' ? 1 : 2;
}

/** Value order: null < numbers < strings; numbers numerically; strings by UTF-8 bytes. */
export function compareTableValues(a: TableValue, b: TableValue): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareUtf8(a, b);
  return 0; // both null
}

/** The order `min` uses: the same, except that null counts as the greatest value. */
export function compareForMin(a: TableValue, b: TableValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return compareTableValues(a, b);
}

/** Element-by-element comparison of equal-length tuples with the given value order. */
export function compareTuples(a: readonly TableValue[], b: readonly TableValue[], compare: (x: TableValue, y: TableValue) => number = compareTableValues): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = compare(a[i] ?? null, b[i] ?? null);
    if (d !== 0) return d;
  }
  return Math.sign(a.length - b.length);
}

/** A key equal for two tuples exactly when their values have the same types and values. */
export function tupleKey(values: readonly TableValue[]): string {
  // JSON keeps 1 and "1" apart and writes equal numbers identically (0 and -0 both as "0").
  return JSON.stringify(values);
}
