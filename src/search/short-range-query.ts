/**
 * Queries over a short range (a detection rule's window) run as one statement each, or, for event
 * filters over the same tenant and range, many in one statement (compileEventBatch). Preparing
 * first lets the caller see which queries can share a statement before it groups them.
 */
import type { Engine, Workload } from '../engine/index.js';
import { compileEventBatch, compileEventFilter, type EventFilter } from '../query/index.js';
import { decodeRows } from './decode-rows.js';
import type { QueryPlan } from './plan-query.js';
import { readCompiled, readEvents } from './read-events.js';
import { resultKind } from './query-run.js';
import { windowRows, type WindowRows } from './rule-window.js';
import type { QueryResult, TimeRange } from './query-result.js';

/** A short-range query's result: a query result, and what identifies its rows for a rule's debounce. */
export type ShortRangeResult = QueryResult & WindowRows;

/** A planned short-range query, ready to run alone or in a batch. */
export interface ShortRangeQuery {
  readonly tenant: string;
  readonly range: TimeRange;
  readonly maxRows: number;
  /**
   * Planned with order `asc` and limit `maxRows`, so `plan.compiled` is the statement that runs
   * it alone: events earliest first up to `maxRows`, or the whole aggregation.
   */
  readonly plan: QueryPlan;
  /** Queries with the same key can run in one statement (`runShortRangeBatch`); null: only alone. */
  readonly batchKey: string | null;
  readonly filter: EventFilter | null;
  /** A detection window's, or the ad hoc work of the tenant (a rule test): how the engine shares its sessions. */
  readonly workload: Workload;
}

/** How a short-range query's events come: earliest first, at most `limit`. */
export interface ShortRangeOutput {
  readonly order: 'asc';
  readonly limit: number;
}

/**
 * Plans the query for a short range (through `planWith`) with what batching it needs. The plan
 * never uses the field catalog's types (`useFieldTypes` stays off): a rule window reads the
 * newest events, and an aggregation over one reads the catalog only for column wildcards, as
 * before.
 */
export async function prepareShortRange(
  planWith: (output: ShortRangeOutput) => Promise<QueryPlan>,
  tenant: string,
  range: TimeRange,
  maxRows: number,
  workload: Workload,
): Promise<ShortRangeQuery> {
  const plan = await planWith({ order: 'asc', limit: maxRows });
  const filter = resultKind(plan) === 'events' ? compileEventFilter(plan.analyzed) : null;
  // Without text-index tokens a filter reads every event in range: batched, it would make its
  // partners evaluate their conditions on every event too, so it runs alone.
  const batchKey = filter?.tokenPrefilter ? [tenant, range.startNs, range.endNs, maxRows].join('\u0000') : null;
  return { tenant, range, maxRows, plan, batchKey, filter, workload };
}

export async function runShortRange(engine: Engine, query: ShortRangeQuery, signal?: AbortSignal): Promise<ShortRangeResult> {
  const { plan } = query;
  const { compiled } = plan;
  const result = await readCompiled(engine, compiled, { settings: compiled.settings, workload: query.workload, ...(signal ? { signal } : {}) });
  const rows = decodeRows(compiled.output, result.rows, plan.indexNames);
  return { kind: resultKind(plan), ...windowRows(compiled.output, rows), bytesScanned: result.stats.bytesRead, truncated: false };
}

/**
 * Runs queries of one batch key in one statement; each gets exactly the rows it would get alone.
 * If that statement fails (not cancelled), each query runs alone, so one query's trouble stays its own.
 * `bytesScanned` is the shared statement's, divided evenly.
 */
export async function runShortRangeBatch(engine: Engine, queries: readonly ShortRangeQuery[], signal?: AbortSignal): Promise<(ShortRangeResult | Error)[]> {
  const first = queries[0];
  if (first === undefined) return [];
  const filters = queries.map((q) => {
    // eslint-disable-next-line no-restricted-syntax -- internal invariant: the batcher groups by batch key
    if (q.batchKey !== first.batchKey || q.filter === null) throw new Error('a batch holds queries of one batch key');
    return q.filter;
  });
  if (queries.length === 1) return [await runShortRange(engine, first, signal).catch(asError)];
  const batch = compileEventBatch(filters, { tenant: first.tenant, ...first.range, limit: first.maxRows });
  let result;
  try {
    result = await readEvents(engine, batch.sql, batch.columns, { settings: batch.settings, workload: first.workload, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    const alone: (ShortRangeResult | Error)[] = [];
    for (const query of queries) alone.push(await runShortRange(engine, query, signal).catch(asError));
    return alone;
  }
  const byMember: Record<string, unknown>[][] = queries.map(() => []);
  for (const row of result.rows) byMember[Number(row.batch_member)]?.push(row);
  const bytesScanned = Math.round(result.stats.bytesRead / queries.length);
  return queries.map((query, i) => {
    const { output } = query.plan.compiled;
    const rows = decodeRows(output, byMember[i] ?? [], query.plan.indexNames);
    return { kind: 'events' as const, ...windowRows(output, rows), bytesScanned, truncated: false };
  });
}

function asError(error: unknown): Error {
  // eslint-disable-next-line no-restricted-syntax -- wraps a thrown non-Error value so callers always get an Error
  return error instanceof Error ? error : new Error(String(error));
}
