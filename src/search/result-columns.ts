import type { DecodedRow } from './decode-rows.js';

/** D28: `@svc.datetime` first, then every other column in the order first seen. */
export function eventColumns(rows: readonly DecodedRow[]): string[] {
  if (rows.length === 0) return [];
  const seen = new Set<string>(['@svc.datetime']);
  for (const row of rows) for (const name of Object.keys(row.columns)) seen.add(name);
  return [...seen];
}
