/**
 * Decodes a statement's rows a chunk at a time, so that a large answer neither holds the event
 * loop (other requests, progress polls) for seconds nor decodes rows the table has no room for.
 */
import type { CompiledOutput } from '../query/index.js';
import { decodeRows, type DecodedRow } from './decode-rows.js';
import { rowBytes } from './table-budget.js';

/** Rows decoded between two turns of the event loop. */
const chunkRows = 1000;

export interface DecodeBounds {
  /** Stop after this many rows. */
  readonly maxRows: number;
  /**
   * Stop once the decoded rows hold more than this many bytes. The row that crosses it is kept,
   * so the caller's budget refuses it and learns the table was cut.
   */
  readonly maxBytes: number;
}

/** Decodes rows in order until a bound is reached; stops early (returning what it has) once `signal` aborts. */
export async function decodeBounded(
  output: CompiledOutput,
  rows: readonly Record<string, unknown>[],
  indexNames: ReadonlyMap<string, string>,
  bounds: DecodeBounds,
  signal?: AbortSignal,
): Promise<DecodedRow[]> {
  const decoded: DecodedRow[] = [];
  let bytes = 0;
  for (let at = 0; at < rows.length; at += chunkRows) {
    if (at > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) return decoded;
    }
    for (const row of decodeRows(output, rows.slice(at, at + chunkRows), indexNames)) {
      decoded.push(row);
      bytes += rowBytes(row);
      if (decoded.length >= bounds.maxRows || bytes > bounds.maxBytes) return decoded;
    }
  }
  return decoded;
}
