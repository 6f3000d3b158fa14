/**
 * Turns the engine's rows of a compiled query back into table rows: raw events get their
 * flattened columns and system columns (D4, D28); tables get one value per column.
 */
import type { CompiledOutput, TableValue } from '../query/index.js';
import { addStoredColumns, parseJsonText } from '../ingest/index.js';
import { formatEventDatetime } from '../query/index.js';

/** A decoded result row; null-prototype, so any column name is an ordinary key. */
export type ResultRow = Record<string, TableValue>;

/** One engine row of a raw-event statement, as `compileQuery` selects it. */
export interface RawEventRow {
  readonly row_time_ns: string;
  readonly row_seq: string;
  readonly row_index_id: string;
  readonly row_source_type: string;
  /**
   * The event's stored JSON, parsed (an event answer, read-events.ts) or as text: its columns
   * are rebuilt with ingest's own flattening.
   */
  readonly row_raw: unknown;
  readonly [alias: string]: unknown;
}

/** The row identity of the interface (`row_id`): event time in ns and the ingest sequence. */
export interface RowId {
  readonly t: string;
  readonly s: string;
}

export interface DecodedRow {
  readonly rowId: RowId | null;
  readonly columns: ResultRow;
}

/** The `row_id` the API writes: `t` a string (nanoseconds exceed 2^53), `s` an integer. */
export interface WireRowId {
  readonly t: string;
  readonly s: number;
}

/**
 * A row's `row_id` on the wire: events have {t: ns time, s: sequence}; aggregated rows have no
 * event behind them, so {t: '0', s: their position in the table}.
 */
export function wireRowId(row: Pick<DecodedRow, 'rowId'>, index: number): WireRowId {
  return row.rowId ? { t: row.rowId.t, s: Number(row.rowId.s) } : { t: '0', s: index };
}

/** Decodes every engine row of a compiled statement. */
export function decodeRows(output: CompiledOutput, rows: readonly Record<string, unknown>[], indexNames: ReadonlyMap<string, string>): DecodedRow[] {
  if (output.kind === 'table') {
    return rows.map((row) => {
      const columns: ResultRow = Object.create(null) as ResultRow;
      for (const column of output.columns) columns[column.name] = pick(row[column.s], row[column.n]);
      const rowId = output.identity.kind === 'event' ? { t: String(row.row_time_ns), s: String(row.row_seq) } : null;
      return { rowId, columns };
    });
  }
  return rows.map((row) => decodeEvent(row as RawEventRow, output.ops, indexNames));
}

function decodeEvent(row: RawEventRow, ops: Extract<CompiledOutput, { kind: 'events' }>['ops'], indexNames: ReadonlyMap<string, string>): DecodedRow {
  const tsNs = BigInt(row.row_time_ns);
  const columns: ResultRow = Object.create(null) as ResultRow;
  columns['@svc.datetime'] = formatEventDatetime(tsNs);
  addStoredColumns(columns, typeof row.row_raw === 'string' ? parsedRaw(row.row_raw) : row.row_raw);
  columns['@svc.time_ns'] = row.row_time_ns;
  columns['@svc.source_type'] = row.row_source_type;
  columns['@index'] = indexNames.get(row.row_index_id) ?? null;
  columns['@index_id'] = row.row_index_id;
  for (const op of ops) {
    if (op.kind === 'delete') delete columns[op.name];
    else columns[op.name] = pick(row[op.s], row[op.n]);
  }
  return { rowId: { t: row.row_time_ns, s: row.row_seq }, columns };
}

// A raw text read apart (an answer that was not one JSON document): parsed exactly, or no columns.
function parsedRaw(text: string): unknown {
  const parsed = parseJsonText(text);
  return parsed.ok ? parsed.value : null;
}

function pick(s: unknown, n: unknown): TableValue {
  if (typeof s === 'string') return s;
  // -0 (math.round(-0.3)) is 0: JSON would print it as "-0"
  if (typeof n === 'number') return n === 0 ? 0 : n;
  if (typeof n === 'string') return Number(n) === 0 ? 0 : Number(n);
  return null;
}
