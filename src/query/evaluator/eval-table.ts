/**
 * The shapes the reference evaluator reads and writes: events in, tables out. Rows are
 * null-prototype records so that any column name, `__proto__` included, is an ordinary key.
 */

/** A table cell: tables hold numbers, strings and null, never booleans (docs "Pipeline"). */
export type TableValue = string | number | null;

/** What a scalar expression yields; booleans exist here but become strings in tables. */
export type ScalarValue = number | string | boolean | null;

/** One stored event, flattened (D3), with the facts its system columns come from (D4). */
export interface EvalEvent {
  /** Flattened user columns; null is JSON null (the column exists but holds no value). */
  readonly columns: Readonly<Record<string, string | number | null>>;
  /** Event time in nanoseconds since the Unix epoch. */
  readonly tsNs: bigint;
  /** Ingest order; unique, breaks ties between events of the same time. */
  readonly seq: bigint;
  readonly sourceType: string;
  readonly indexName: string;
  readonly indexId: string;
  /** True for `_detections` / `_audit`: searched only when the query names the index (D18). */
  readonly systemIndex: boolean;
}

/**
 * A query's result. In a raw-event table (no `table` command or aggregation ran) a row holds only
 * the columns its event has, so a name in `columns` may be absent from a row: absent is "missing",
 * which differs from a present null (JSON null). Every other table has every column in every row.
 */
export interface EvalTable {
  readonly columns: readonly string[];
  readonly rows: readonly Readonly<Record<string, TableValue>>[];
}

/** A row under construction; see `newRow`. */
export type Row = Record<string, TableValue>;

/** A row whose keys are exactly the given entries, in order, with no prototype. */
export function newRow(entries: Iterable<readonly [string, TableValue]> = []): Row {
  const row: Row = Object.create(null) as Row;
  for (const [name, value] of entries) row[name] = value;
  return row;
}

/** The cell of `name`, or undefined when the row has no such column (missing, not null). */
export function cellOf(row: Readonly<Record<string, TableValue>>, name: string): TableValue | undefined {
  return Object.hasOwn(row, name) ? row[name] : undefined;
}

/** The cell of `name` where a missing column counts as null (aggregations, `table`, scalars). */
export function cellOrNull(row: Readonly<Record<string, TableValue>>, name: string): TableValue {
  return cellOf(row, name) ?? null;
}
