import { EngineError } from '../core/index.js';
import type { EngineQueryResult } from './engine.js';

interface JsonFormatBody {
  readonly meta?: readonly { readonly name: string }[];
  readonly data?: unknown[];
  readonly statistics?: { readonly elapsed?: number; readonly rows_read?: number; readonly bytes_read?: number };
}

/**
 * Reads a `FORMAT JSON` answer. Bytes scanned come from its `statistics` object: chDB's own
 * result metrics do not count what the query read. An empty answer (a statement without rows)
 * is an empty result.
 */
export function parseJsonFormatResult<Row>(text: string): EngineQueryResult<Row> {
  if (text.trim() === '') return { rows: [], columns: [], stats: { rowsRead: 0, bytesRead: 0, elapsedMs: 0 } };
  let body: JsonFormatBody;
  try {
    body = JSON.parse(text) as JsonFormatBody;
  } catch (cause) {
    throw new EngineError('reading query result: not a JSON format answer', { cause });
  }
  const stats = body.statistics ?? {};
  return {
    rows: (body.data ?? []) as Row[],
    columns: (body.meta ?? []).map((column) => column.name),
    stats: {
      rowsRead: Number(stats.rows_read ?? 0),
      bytesRead: Number(stats.bytes_read ?? 0),
      elapsedMs: Number(stats.elapsed ?? 0) * 1000,
    },
  };
}
