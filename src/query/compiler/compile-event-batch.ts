/**
 * Many event filters over the same tenant and time range in one statement. Detection rules are
 * mostly filters for something rare, and a thousand of them share each minute's window: one scan
 * under the union of their text-index prefilters, then each filter evaluated only on the rows that
 * scan keeps, costs a fraction of a statement per rule (docs/benchmarks-journal.md, detections).
 */
import { sqlInteger, sqlString, sqlTimestampNs } from '../../core/index.js';
import type { AnalyzedQuery } from '../analyzer/analyze-query.js';
import { compileFilter } from './compile-filter.js';
import { compilePrefilter, narrowsByTextIndex } from './compile-prefilter.js';
import { eventRowAliases, eventRowColumns, querySettings, scopeCondition } from './compile-query.js';
import { storedEventsEnv } from './sql-env.js';

/** A query that is only an event filter: its exact row condition and a necessary condition on the text index. */
export interface EventFilter {
  /** The indexes in scope and the filter: exactly the rows the query returns (within the scan bounds). */
  readonly condition: string;
  /** Holds for every row `condition` holds for; cheap (index ids and text-index tokens only). */
  readonly prefilter: string;
  /** Whether the prefilter names text-index tokens (without, a scan reads every event of the indexes in scope). */
  readonly tokenPrefilter: boolean;
}

/**
 * The query's row condition and prefilter, or null when it has a pipeline (its result is not the
 * filtered events themselves). The same compilation as `compileQuery`, so rows agree with it.
 */
export function compileEventFilter(analyzed: AnalyzedQuery): EventFilter | null {
  if (analyzed.query.pipeline.length > 0) return null;
  const indexNames = new Map(analyzed.scope.map((index) => [index.id, index.name]));
  const scope = scopeCondition(analyzed);
  const exact = compileFilter(analyzed.query.filter, storedEventsEnv(analyzed), { analyzed, indexNames, plans: [] });
  const relaxed = compilePrefilter(analyzed);
  const both = (filter: string): string => (scope === '0' || filter === '0' ? '0' : filter === '1' ? scope : `(${scope} AND ${filter})`);
  return { condition: both(exact), prefilter: both(relaxed), tokenPrefilter: narrowsByTextIndex(analyzed) };
}

export interface EventBatchOptions {
  readonly tenant: string;
  /** Time range `[startNs, endNs)` of event times, in nanoseconds. */
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** Each filter's rows: at most this many, earliest first. */
  readonly limit: number;
}

export interface CompiledEventBatch {
  readonly sql: string;
  readonly settings: Readonly<Record<string, number>>;
  /** The statement's result columns in order (`eventRowAliases`, then `batch_member`). */
  readonly columns: readonly string[];
}

/**
 * One statement returning, for each filter, its earliest `limit` events; each row also carries
 * `batch_member`, the 0-based position of the filter it belongs to (a row matching several
 * filters comes once per filter).
 */
export function compileEventBatch(filters: readonly EventFilter[], options: EventBatchOptions): CompiledEventBatch {
  const bounds = [`tenant = ${sqlString(options.tenant)}`, `ts >= ${sqlTimestampNs(options.startNs)}`, `ts < ${sqlTimestampNs(options.endNs)}`];
  const prefilters = [...new Set(filters.map((f) => f.prefilter))];
  const scan = [...bounds, `(${prefilters.join(' OR ')})`];
  const hits = `[${filters.map((f) => f.condition).join(', ')}]`;
  const inner = `SELECT ${eventRowColumns.join(', ')}, ts, seq, ${hits} AS batch_hits FROM logs WHERE ${scan.join(' AND ')}`;
  const member = `arrayJoin(arrayFilter(i -> batch_hits[i + 1] != 0, range(${sqlInteger(filters.length)}))) AS batch_member`;
  const sql = `SELECT ${eventRowAliases.join(', ')}, ${member} ` + `FROM (${inner}) ORDER BY ts ASC, seq ASC LIMIT ${sqlInteger(options.limit)} BY batch_member`;
  // Many filters make a long statement with a large syntax tree: allow what this one needs
  // (max_query_size counts UTF-8 bytes, and a character beyond ASCII takes several).
  return {
    sql,
    columns: [...eventRowAliases, 'batch_member'],
    settings: { ...querySettings, max_query_size: Math.max(262_144, new TextEncoder().encode(sql).length + 1), max_ast_elements: 50_000 * Math.max(1, filters.length) },
  };
}
