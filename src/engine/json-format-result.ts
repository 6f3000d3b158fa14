import { EngineError } from '../core/index.js';
import type { EngineQueryResult } from './engine.js';

/** The format every engine asks its query answers in; `parseJsonCompactResult` reads it. */
export const queryResultFormat = 'JSONCompact';

interface JsonCompactBody {
  readonly meta?: readonly { readonly name: string }[];
  readonly data?: readonly (readonly unknown[])[];
  readonly statistics?: { readonly elapsed?: number; readonly rows_read?: number; readonly bytes_read?: number };
}

/**
 * Reads a `FORMAT JSONCompact` answer: rows are arrays in the order of `meta`, turned into
 * objects here. The compact form leaves the column names out of every row, which costs the
 * engine less to write and us less to parse than `FORMAT JSON` (5-10 ms of about 70 for 1,000
 * Windows events). Bytes scanned come from its `statistics` object: chDB's own result metrics
 * do not count what the query read. An empty answer (a statement without rows) is an empty result.
 */
export function parseJsonCompactResult<Row>(text: string): EngineQueryResult<Row> {
  if (text.trim() === '') return { rows: [], columns: [], stats: { rowsRead: 0, bytesRead: 0, elapsedMs: 0 } };
  let body: JsonCompactBody;
  try {
    body = JSON.parse(text) as JsonCompactBody;
  } catch (cause) {
    throw new EngineError('reading query result: not a JSON format answer', { cause });
  }
  const columns = (body.meta ?? []).map((column) => column.name);
  const rows = (body.data ?? []).map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) {
      const name = columns[i]!;
      // An alias `__proto__` must be a key, as JSON.parse makes it, not the object's prototype.
      if (name === '__proto__') Object.defineProperty(row, name, { value: values[i], enumerable: true, writable: true, configurable: true });
      else row[name] = values[i];
    }
    return row as Row;
  });
  const stats = body.statistics ?? {};
  return {
    rows,
    columns,
    stats: {
      rowsRead: Number(stats.rows_read ?? 0),
      bytesRead: Number(stats.bytes_read ?? 0),
      elapsedMs: Number(stats.elapsed ?? 0) * 1000,
    },
  };
}
