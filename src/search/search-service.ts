/**
 * Ad hoc queries for one tenant: plan them (for `--explain`) and run them to completion. The
 * tenant's indexes come from the caller, so this module never reads the metadata store.
 */
import type { Engine } from '../engine/index.js';
import type { IndexInfo, PredicatePlan } from '../query/index.js';
import { decodeRows, type DecodedRow } from './decode-rows.js';
import { planQuery, type QueryPlan } from './plan-query.js';

/** A time range of event times, `[startNs, endNs)`. */
export interface TimeRange {
  readonly startNs: bigint;
  readonly endNs: bigint;
}

export interface RunOptions {
  /** Raw-event results: at most this many rows, newest first unless `order` is `asc`. */
  readonly maxRows: number;
  readonly order?: 'asc' | 'desc';
  readonly signal?: AbortSignal;
}

export interface QueryResult {
  /** `events` for raw-event results, `table` after an aggregation or `table`. */
  readonly kind: 'events' | 'table';
  /** Column names in display order (D28 for events: `@svc.datetime` first, then first seen). */
  readonly columns: readonly string[];
  readonly rows: readonly DecodedRow[];
  readonly bytesScanned: number;
}

export interface QueryExplanation {
  readonly plan: QueryPlan;
  readonly predicates: readonly PredicatePlan[];
}

export class SearchService {
  constructor(
    private readonly engine: Engine,
    private readonly indexesOf: (tenant: string) => Promise<readonly IndexInfo[]>,
  ) {}

  /** Parses, analyzes and compiles without running: the AST, the SQL and the index each predicate uses. */
  async explain(tenant: string, text: string, range: TimeRange): Promise<QueryExplanation> {
    const plan = await this.plan(tenant, text, range, {});
    return { plan, predicates: plan.compiled.plans };
  }

  /** Runs a query to completion. */
  async run(tenant: string, text: string, range: TimeRange, options: RunOptions): Promise<QueryResult> {
    const order = options.order ?? 'desc';
    const plan = await this.plan(tenant, text, range, { order, limit: options.maxRows });
    const result = await this.engine.query(plan.compiled.sql, {
      settings: plan.compiled.settings,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const rows = decodeRows(plan.compiled.output, result.rows, plan.indexNames);
    const kind = plan.compiled.output.kind;
    const columns = kind === 'table' && plan.compiled.output.kind === 'table' ? plan.compiled.output.columns.map((c) => c.name) : eventColumns(rows);
    return { kind, columns, rows, bytesScanned: result.stats.bytesRead };
  }

  private async plan(tenant: string, text: string, range: TimeRange, extra: { order?: 'asc' | 'desc'; limit?: number }): Promise<QueryPlan> {
    const indexes = await this.indexesOf(tenant);
    return planQuery(this.engine, { tenant, text, indexes, startNs: range.startNs, endNs: range.endNs, ...extra });
  }
}

/** D28: `@svc.datetime` first, then every other column in the order first seen. */
export function eventColumns(rows: readonly DecodedRow[]): string[] {
  const seen = new Set<string>(['@svc.datetime']);
  for (const row of rows) for (const name of Object.keys(row.columns)) seen.add(name);
  return rows.length === 0 ? [] : [...seen];
}
