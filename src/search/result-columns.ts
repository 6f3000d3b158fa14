import type { CompiledOutput } from '../query/index.js';
import type { DecodedRow } from './decode-rows.js';

/** D28: `@svc.datetime` first, then every other column in the order first seen. */
function eventColumns(rows: readonly DecodedRow[]): string[] {
  if (rows.length === 0) return [];
  const seen = new Set<string>(['@svc.datetime']);
  for (const row of rows) for (const name of Object.keys(row.columns)) seen.add(name);
  return [...seen];
}

/** A result's columns: a table's own, or those of its events (D28). */
export function resultColumns(output: CompiledOutput, rows: readonly DecodedRow[]): string[] {
  return output.kind === 'table' ? output.columns.map((c) => c.name) : eventColumns(rows);
}
