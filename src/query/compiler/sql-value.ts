/**
 * How table values look in the generated SQL. A value is a pair of nullable SQL expressions, a
 * string `s` and a number `n`, at most one of them non-null; both null means null or missing.
 * A pair keeps the two kinds apart without ClickHouse's Dynamic type, so grouping, ordering and
 * comparisons follow our value rules exactly (null < numbers < strings).
 */
import { sqlIdentifier, sqlString } from '../../core/index.js';

export interface SqlValue {
  /** Nullable(String) expression. */
  readonly s: string;
  /** Nullable(Float64) expression. */
  readonly n: string;
  /** UInt8 expression: the column exists (for `col: *`), even when it holds null. */
  readonly exists: string;
}

/** A scalar expression's value: a table value or a boolean (`b`, Nullable(UInt8)). */
export interface SqlScalar {
  readonly s: string;
  readonly n: string;
  readonly b: string;
}

export const nullString = "CAST(NULL, 'Nullable(String)')";
export const nullNumber = "CAST(NULL, 'Nullable(Float64)')";
export const nullBoolean = "CAST(NULL, 'Nullable(UInt8)')";

/**
 * A user column of the raw event table, read from the JSON column's typed sub-columns. Ingest
 * stores only String, Int64 and Float64 leaves (D3), and a null as the path in `null_paths`.
 *
 * `types` are the engine types the field catalog lists for the path over the query's indexes and
 * days (`Null` for a null): each sub-column read costs, so only the ones listed are read (a
 * groupbycount over 5 M events: 184 ms reading Int64 alone, 305 ms reading all three). Reading
 * fewer gives the same values only because the catalog lists every (path, type) stored, so a
 * variant it leaves out is null in every row; `[]` (not in the catalog) reads as a missing
 * column. Without `types` every variant is read.
 */
export function attrsValue(path: string, types?: readonly string[]): SqlValue {
  const column = `attrs.${sqlIdentifier(path)}`;
  const has = (type: string): boolean => types === undefined || types.includes(type);
  const numbers = [...(has('Int64') ? [`toFloat64(${column}.:Int64)`] : []), ...(has('Float64') ? [`${column}.:Float64`] : [])];
  // Any listed type but Null (even one ingest does not write) is a stored value.
  const stored = types === undefined || types.some((type) => type !== 'Null');
  const exists = [...(stored ? [`isNotNull(${column})`] : []), ...(has('Null') ? [`has(null_paths, ${sqlString(path)})`] : [])];
  return {
    s: has('String') ? `${column}.:String` : nullString,
    n: numbers.length === 0 ? nullNumber : numbers.length === 1 ? (numbers[0] as string) : `coalesce(${numbers.join(', ')})`,
    exists: exists.length === 0 ? '0' : exists.length === 1 ? (exists[0] as string) : `(${exists.join(' OR ')})`,
  };
}

/** A value held in a pair of SQL columns of a derived table. */
export function pairValue(sAlias: string, nAlias: string): SqlValue {
  return { s: sqlIdentifier(sAlias), n: sqlIdentifier(nAlias), exists: '1' };
}

export function stringValue(expr: string): SqlValue {
  return { s: `CAST(${expr}, 'Nullable(String)')`, n: nullNumber, exists: '1' };
}

export const missingValue: SqlValue = { s: nullString, n: nullNumber, exists: '0' };

/**
 * The value's text (docs: "the text of a value"): the string, or the number printed canonically
 * (`+ 0` turns -0 into 0, which JavaScript and ingest print as "0").
 */
export function valueText(v: { s: string; n: string }): string {
  return `coalesce(${v.s}, toString(${v.n} + 0))`;
}

/**
 * Infinities become null: tables and JSON hold finite numbers only. Written with `nullIf` so
 * the expression appears once (nested arithmetic would otherwise double in size per level).
 */
export function finiteOrNull(expr: string): string {
  return `nullIf(nullIf(CAST(${expr}, 'Nullable(Float64)'), inf), -inf)`;
}

// A string that is entirely a decimal number (D17), as in the docs and the evaluator.
const decimalPattern = sqlString('^-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?$');

/** The value as a number for comparisons and numeric aggregations: numbers and decimal strings. */
export function numericValue(v: { s: string; n: string }): string {
  return `coalesce(${v.n}, if(match(${v.s}, ${decimalPattern}), toFloat64OrNull(${v.s}), NULL))`;
}

/**
 * A sort key that orders values by our rules: null < numbers < strings, numbers numerically,
 * strings by bytes. `nullLast` puts null after everything (what `min` needs).
 */
export function valueSortKey(v: { s: string; n: string }, nullLast = false): string {
  const nullRank = nullLast ? 3 : 0;
  return `tuple(multiIf(${v.s} IS NOT NULL, 2, ${v.n} IS NOT NULL, 1, ${nullRank}), ifNull(${v.n}, 0), ifNull(${v.s}, ''))`;
}

/** Turns a scalar into a table value: booleans become the strings `true` / `false`. */
export function scalarToValue(x: SqlScalar): { s: string; n: string } {
  return {
    s: `CAST(multiIf(${x.b} IS NOT NULL, if(${x.b} = 1, 'true', 'false'), ${x.s}), 'Nullable(String)')`,
    n: `CAST(${x.n}, 'Nullable(Float64)')`,
  };
}
