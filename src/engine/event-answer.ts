import { EngineError } from '../core/index.js';
import type { EngineQueryResult, EventAnswer } from './engine.js';

/** The format `eventAnswerSettings` configures. */
export const eventAnswerFormat = 'Template';

const columnName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Settings that make a statement answer one JSON document in which the raw column is written
 * as it is stored, an object, rather than as an escaped string:
 * `{"rows":[[c1,…,{…event…},…],…],"rows_read":n,"bytes_read":n,"elapsed":s}`.
 * Stored raw text is always a JSON object (ingest keeps only lines that parse as one), so the
 * document is valid JSON. Measured on 1,000 Windows events (4.7 MB answer): the engine took
 * 45 ms instead of 71 ms with `JSONCompact` (escaping every quote of every event was the
 * difference), and one parse of the document replaces a parse of the answer plus one per event.
 */
export function eventAnswerSettings(answer: EventAnswer): Record<string, string> {
  const cells = answer.columns.map((name) => {
    if (!columnName.test(name) || name === '__proto__') throw new EngineError(`an event answer column must be a plain name, got ${JSON.stringify(name)}`);
    return `\${${name}:${name === answer.rawColumn ? 'Raw' : 'JSON'}}`;
  });
  if (!answer.columns.includes(answer.rawColumn)) throw new EngineError(`the event answer has no column ${answer.rawColumn}`);
  return {
    format_template_resultset_format: '{"rows":[${data}],"rows_read":${rows_read:JSON},"bytes_read":${bytes_read:JSON},"elapsed":${time:JSON}}',
    format_template_row_format: `[${cells.join(',')}]`,
    format_template_rows_between_delimiter: ',',
  };
}

interface EventAnswerBody {
  readonly rows: readonly (readonly unknown[])[];
  readonly rows_read: number;
  readonly bytes_read: number;
  readonly elapsed: number;
}

/**
 * Reads an answer written with `eventAnswerSettings` into row objects keyed by column name (the
 * raw column holding the parsed event), or null when it is not valid JSON: a raw text that is
 * not JSON (never written by ingest) breaks the whole document, and the caller then asks again
 * in a format that keeps each raw text apart.
 */
export function parseEventAnswer<Row>(text: string, answer: EventAnswer): EngineQueryResult<Row> | null {
  let body: EventAnswerBody;
  try {
    body = answer.parseJson(text) as EventAnswerBody;
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null || !Array.isArray(body.rows)) return null;
  const { columns } = answer;
  const rows = body.rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
    return row as Row;
  });
  return {
    rows,
    columns,
    stats: { rowsRead: Number(body.rows_read ?? 0), bytesRead: Number(body.bytes_read ?? 0), elapsedMs: Number(body.elapsed ?? 0) * 1000 },
  };
}
