/**
 * The rows of uploaded lookup tables (docs/compatibility.md, "Lookup tables"), which queries read
 * through `| lookup` (query/compiler/compile-lookup.ts). One engine row per CSV line: its cells in
 * file order and its position. Rows are written under a version, and a replacement writes a new
 * version before the store points at it, so a query reads either the old data or the new, whole.
 */
import { sqlInteger, sqlString } from '../core/index.js';

/** The table's DDL, a schema template like the others (schema.ts renders it). */
export const lookupRowsTable = `CREATE TABLE IF NOT EXISTS lookup_rows{{onCluster}} (
  tenant LowCardinality(String),
  table_id String,
  version String,
  row UInt32,
  cells Array(String)
) ENGINE = {{mergeTree}}
ORDER BY (tenant, table_id, version, row)
SETTINGS fsync_after_insert = 1, fsync_part_directory = 1`;

// Rows per INSERT: a VALUES list is read by the streaming parser, not the query parser, so its
// size is bounded by memory only; chunks keep one statement's text around a few megabytes.
const rowsPerInsert = 20_000;

/** The INSERT statements that write a table's rows under a version. */
export function insertLookupRows(tenant: string, tableId: string, version: string, rows: readonly (readonly string[])[]): string[] {
  const statements: string[] = [];
  const prefix = `${sqlString(tenant)}, ${sqlString(tableId)}, ${sqlString(version)}`;
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    const values = rows.slice(start, start + rowsPerInsert).map((cells, i) => `(${prefix}, ${sqlInteger(start + i)}, [${cells.map(sqlString).join(', ')}])`);
    statements.push(`INSERT INTO lookup_rows (tenant, table_id, version, row, cells) VALUES ${values.join(', ')}`);
  }
  return statements;
}

/** The DELETE of a table's rows: every version but `keep`, or all. `target`: on a cluster, the local tables (mutationTarget). */
export function deleteLookupRows(tenant: string, tableId: string, keep?: string, target = 'lookup_rows'): string {
  const where = [`tenant = ${sqlString(tenant)}`, `table_id = ${sqlString(tableId)}`, ...(keep === undefined ? [] : [`version != ${sqlString(keep)}`])];
  return `DELETE FROM ${target} WHERE ${where.join(' AND ')}`;
}
