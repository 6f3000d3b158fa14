/** The table that flows between pipeline commands. */
import type { Row } from './eval-table.js';

export interface PipelineTable {
  readonly rows: readonly Row[];
  /**
   * The table's columns in order, or null for a raw-event table: its rows may lack columns, and
   * its column order is read off the rows (`rawColumnOrder`) until `table` or an aggregation fixes it.
   */
  readonly columns: readonly string[] | null;
  /** Whether an aggregation has run; from then on free text and wildcard names in `where` reach every column. */
  readonly aggregated: boolean;
}

/**
 * D28's order of a raw-event table: `@svc.datetime` first, then every other column in the order
 * first seen, reading the rows in order and each row's columns in its own order.
 */
export function rawColumnOrder(rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  if (rows.some((row) => Object.hasOwn(row, '@svc.datetime'))) seen.add('@svc.datetime');
  for (const row of rows) for (const name of Object.keys(row)) seen.add(name);
  return [...seen];
}

/** The columns of any table. */
export function columnsOf(table: PipelineTable): readonly string[] {
  return table.columns ?? rawColumnOrder(table.rows);
}

/**
 * A column list without repeats, the first occurrence kept: `table(a, a)` has one `a`, and in
 * `stats max(x) as host by host` the group column keeps the name (as src/query/output-columns.ts
 * names them for the analyzer and compiler). The first value wins, too: see `rowOf`.
 */
export function distinctColumns(columns: readonly string[]): string[] {
  return [...new Set(columns)];
}
