/**
 * The most frequent values of one field among a query's events (the search page's field
 * sidebar), written in the query language itself and run as ad hoc queries are, so the same
 * planning, limits and engine path apply: `<query> | where f: * | groupbycount f | head n`, then
 * `<query> | where f: * | count`.
 */
import { ValidationError } from '../core/index.js';
import { parseQuery, plainColumnName, printColumnAnywhere, printQuery, rowWisePrefix, type ColumnName, type TableValue } from '../query/index.js';
import type { QueryResult, TimeRange } from './query-result.js';

export const fieldValueLimits = { defaultLimit: 10, maxLimit: 100 } as const;

export interface FieldValuesRequest {
  readonly text: string;
  /** A column name as the field catalog lists it (no wildcards). */
  readonly field: string;
  readonly range: TimeRange;
  readonly limit: number;
}

export interface FieldValues {
  readonly field: string;
  /** The query's events holding the field (a null value included). */
  readonly events: number;
  readonly values: readonly { readonly value: TableValue; readonly count: number }[];
  /** `events` minus the listed counts. */
  readonly otherCount: number;
}

/** Runs a query to its end, as `SearchService.run` does (same limits). */
export type RunQueryText = (text: string, range: TimeRange) => Promise<QueryResult>;

const nowhere = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };

/**
 * The two queries behind a field's values. The query's events are the rows of its row-wise part
 * (its filter, then `where`, `eval`, `rename`, `table`, `lookup` up to any other command): its result rows
 * when it has no other command, else the events its first aggregation, `head` or `tail` takes,
 * as the histogram counts them. The caller has checked the query itself, so that its errors
 * point into its own text.
 */
export function fieldValueQueries(text: string, field: string, limit: number): { values: string; count: string; column: string } {
  if (field.length === 0 || field.length > 1000) throw new ValidationError('must be a column name of 1 to 1000 characters', { field: 'field' });
  const parsed = parseQuery(text);
  // eslint-disable-next-line no-restricted-syntax -- internal invariant: the route checked the query first
  if (parsed.query === null) throw new Error('field values of a query that does not parse');
  const events = { ...parsed.query, pipeline: rowWisePrefix(parsed.query.pipeline) };
  const column: ColumnName = { kind: 'column', quote: 'bare', parts: [{ kind: 'text', text: field }], span: nowhere };
  const name = printColumnAnywhere(column);
  const base = `${printQuery(events)} | where ${name}: *`;
  return { values: `${base} | groupbycount ${name} | head ${limit}`, count: `${base} | count`, column: plainColumnName(column) ?? field };
}

/** Reads a field's top values and how many events hold it. */
export async function readFieldValues(request: FieldValuesRequest, run: RunQueryText): Promise<FieldValues> {
  if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > fieldValueLimits.maxLimit) {
    throw new ValidationError(`must be an integer from 1 to ${fieldValueLimits.maxLimit}`, { field: 'limit' });
  }
  const queries = fieldValueQueries(request.text, request.field, request.limit);
  const top = await run(queries.values, request.range);
  const counted = await run(queries.count, request.range);
  const values = top.rows.map((row) => ({ value: row.columns[queries.column] ?? null, count: Number(row.columns['@q.count'] ?? 0) }));
  const events = Number(counted.rows[0]?.columns['@q.count'] ?? 0);
  const listed = values.reduce((sum, v) => sum + v.count, 0);
  // An insert between the two statements can make the listed counts exceed the total: never negative.
  return { field: request.field, events: Math.max(events, listed), values, otherCount: Math.max(0, events - listed) };
}
