/**
 * Runs a raw-event statement through the engine's event answer (each event's stored JSON comes
 * back parsed in one pass over the answer, not escaped and parsed twice), parsed exactly as
 * ingest parses events, so integers beyond 2^53 keep their digits (D3).
 */
import type { Engine, EngineQueryOptions, EngineQueryResult, EventAnswer } from '../engine/index.js';
import { parseJsonText } from '../ingest/index.js';
import type { CompiledQuery } from '../query/index.js';

/** The column of an event statement that holds the event's stored JSON text. */
export const rawEventColumn = 'row_raw';

/** Runs `sql`, whose result columns are `columns` in order; `row_raw` comes back parsed. */
export function readEvents(engine: Engine, sql: string, columns: readonly string[], options: EngineQueryOptions = {}): Promise<EngineQueryResult<Record<string, unknown>>> {
  return engine.queryEvents(sql, { columns, rawColumn: rawEventColumn, parseJson: parseExactly }, options);
}

/** Runs a compiled query's statement: raw events through `readEvents`, tables as they are. */
export function readCompiled(engine: Engine, compiled: CompiledQuery, options: EngineQueryOptions = {}): Promise<EngineQueryResult<Record<string, unknown>>> {
  const { output } = compiled;
  return output.kind === 'events' ? readEvents(engine, compiled.sql, output.columns, options) : engine.query(compiled.sql, options);
}

const parseExactly: EventAnswer['parseJson'] = (text) => {
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new SyntaxError('not valid JSON');
  return parsed.value;
};
