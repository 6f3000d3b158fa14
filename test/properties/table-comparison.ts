/**
 * Compares the evaluator's table with the engine's decoded rows: the same rows in the same
 * order, the same column list for tables, numbers equal up to float rounding (ClickHouse sums
 * and variances add in a different order than the evaluator), -0 equal to 0.
 */
import type { EvalTable, TableValue } from '../../src/query/index.js';

export interface ActualTable {
  readonly rows: readonly Record<string, TableValue>[];
  /** Column list of table results; null for raw events (their column order is not compared). */
  readonly columns: readonly string[] | null;
}

/** Rows as sorted-key plain objects, so JSON output and deep equality ignore key order. */
export function normalizeTable(rows: readonly Readonly<Record<string, TableValue>>[]): Record<string, TableValue>[] {
  return rows.map((row) => {
    const out: Record<string, TableValue> = {};
    for (const key of Object.keys(row).sort()) {
      const value = row[key] as TableValue;
      out[key] = value === 0 ? 0 : value;
    }
    return out;
  });
}

export function tablesAgree(expected: EvalTable, actual: ActualTable): { ok: true } | { ok: false; reason: string } {
  if (actual.columns !== null && JSON.stringify(actual.columns) !== JSON.stringify(expected.columns)) {
    return { ok: false, reason: `columns differ: ${JSON.stringify(expected.columns)} vs ${JSON.stringify(actual.columns)}` };
  }
  const want = normalizeTable(expected.rows);
  const got = normalizeTable(actual.rows);
  if (want.length !== got.length) return { ok: false, reason: `row counts differ: ${want.length} vs ${got.length}` };
  for (let i = 0; i < want.length; i++) {
    const a = want[i] as Record<string, TableValue>;
    const b = got[i] as Record<string, TableValue>;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      if (!(key in a) || !(key in b)) return { ok: false, reason: `row ${i}: column ${key} only on one side` };
      if (!valuesAgree(a[key] as TableValue, b[key] as TableValue)) {
        return { ok: false, reason: `row ${i}: ${key} is ${JSON.stringify(a[key])} vs ${JSON.stringify(b[key])}` };
      }
    }
  }
  return { ok: true };
}

function valuesAgree(a: TableValue, b: TableValue): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  }
  return a === b;
}
