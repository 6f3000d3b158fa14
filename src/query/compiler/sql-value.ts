/**
 * How table values look in the generated SQL. A value is a pair of nullable SQL expressions, a
 * string `s` and a number `n`, at most one of them non-null; both null means null or missing.
 * A pair keeps the two kinds apart without ClickHouse's Dynamic type, so grouping, ordering and
 * comparisons follow our value rules exactly (null < numbers < strings).
 */
import { sqlIdentifier, sqlString, type StoredLayout } from '../../core/index.js';

export interface SqlValue {
  /** Nullable(String) expression. */
  readonly s: string;
  /** Nullable(Float64) expression. */
  readonly n: string;
  /** UInt8 expression: the column exists (for `col: *`), even when it holds null. */
  readonly exists: string;
  /**
   * A lookup the `field_paths` index answers that holds wherever `s` or `n` is not null, set where
   * reading a part reads a rest map (`strings`, `numbers` say which): the map is read whole for
   * every granule scanned, while the index skips the granules without the column.
   */
  readonly present?: { readonly lookup: string; readonly strings: boolean; readonly numbers: boolean };
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
 * A user column of rows written before schema v10, read from the JSON column's typed sub-columns. Ingest
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

/**
 * A user column where `layout` says each row holds it (docs/engine.md, "Typed slots"): its strings
 * and its numbers each in the slot of that type its row's field map gives it, else in the rest
 * maps (`rest_s`, `rest_n`), and in `attrs` for rows of map 0 (schema v9 and before). `types`
 * prune what is read, as in `attrsValue`.
 *
 * Every place a row may hold the part is read with `coalesce`, without asking the row's map:
 * a row holds the column in at most one of them, and the others are empty for it. A lineage's
 * versions only add slots, so before the version that promoted the column its slot was free
 * (null) in that lineage's rows; the rest maps and `attrs` are empty where a slot holds it. Only
 * a slot that another lineage in scope gives another column needs its rows told apart by map id.
 */
export function storedValue(path: string, types: readonly string[] | undefined, layout: StoredLayout): SqlValue {
  const has = (type: string): boolean => types === undefined || types.includes(type);
  // A store holding no row written since schema v10 reads attrs alone.
  if (layout.legacy && layout.mapRanges.length === 0) return attrsValue(path, types);
  const legacy = layout.legacy ? attrsValue(path, types) : null;
  const key = sqlString(path);
  const strings = has('String') ? storedPart(layout, path, 'string', `rest_s[${key}]`, legacy?.s) : { sql: nullString, readsRest: false };
  const anyNumber = has('Int64') || has('Float64');
  const numbers = anyNumber ? storedPart(layout, path, 'number', `rest_n[${key}]`, legacy?.n) : { sql: nullNumber, readsRest: false };
  const [s, n] = [strings.sql, numbers.sql];
  const stored = types === undefined || types.some((type) => type !== 'Null');
  if (!stored && !has('Null')) return { s, n, exists: '0' };
  const paths = `has(field_paths, ${key})`;
  // field_paths lists the columns of rows written since v10 only, so it cannot vouch for attrs.
  const present = legacy === null && (strings.readsRest || numbers.readsRest) ? { present: { lookup: paths, strings: strings.readsRest, numbers: numbers.readsRest } } : {};
  // A column exists where it holds a value or a null. With no null stored and its values read
  // from slot columns alone, the slots tell; otherwise field_paths (which lists nulls too).
  const read = [s, n].filter((part) => part !== nullString && part !== nullNumber);
  if (types !== undefined && !has('Null') && legacy === null && read.every((part) => slotColumnPattern.test(part))) {
    return { s, n, exists: read.map((part) => `isNotNull(${part})`).join(' OR ') };
  }
  return { s, n, exists: legacy === null || legacy.exists === '0' ? paths : `(${paths} OR ${legacy.exists})`, ...present };
}

const slotColumnPattern = /^[sn][0-9]+$/;

/** One part (strings or numbers) of a stored column: every slot that may hold it, the rest map unless every map in scope has a slot for it, attrs for map 0. */
function storedPart(layout: StoredLayout, path: string, kind: 'string' | 'number', rest: string, legacy: string | undefined): { sql: string; readsRest: boolean } {
  const reads = (layout.slots.get(path) ?? [])
    .filter((use) => use.kind === kind)
    .map((use) => (use.shared ? `if(${mapRangesCondition(use.mapRanges)}, ${use.column}, NULL)` : use.column));
  const readsRest = !layout.slotted.has(`${kind === 'string' ? 's' : 'n'}:${path}`);
  if (readsRest) reads.push(rest);
  if (legacy !== undefined) reads.push(legacy);
  return { sql: reads.length === 1 ? (reads[0] as string) : `coalesce(${reads.join(', ')})`, readsRest };
}

function mapRangesCondition(ranges: readonly (readonly [bigint, bigint])[]): string {
  const parts = ranges.map(([from, to]) => `field_map BETWEEN ${from} AND ${to}`);
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(' OR ')})`;
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
