import type { Clock } from '../core/index.js';
import type { QueryRows, RunQuery } from '../detections/index.js';
import type { Engine, FieldInfo } from '../engine/index.js';
import { compileQuery, isSliceable, type IndexInfo } from '../query/index.js';
import { decodeRows, eventColumns, planQuery } from '../search/index.js';
import type { IndexService } from './index-service.js';

export interface RuleQueryRunnerOptions {
  /** How long a tenant's index list and field catalog are reused between windows. */
  readonly cacheTtlMs: number;
}

/**
 * Runs a rule's query over one window (the detections module's `runQuery`). A window is short, so
 * it runs as one statement — events earliest first with `LIMIT`, or the aggregation whole —
 * instead of the ad hoc path's histogram and time slices, which cost three times as much for
 * a one-minute window (docs/benchmarks.md). Many rules evaluate the same tenant's windows at once:
 * its index list and field catalog are reused for `cacheTtlMs`, so a field that first appears
 * within that time may be missing from wildcard expansion for one window.
 */
export function createRuleQueryRunner(engine: Engine, indexes: IndexService, clock: Clock, options: RuleQueryRunnerOptions): RunQuery {
  const indexCache = new Map<string, { at: number; value: Promise<IndexInfo[]> }>();
  const catalogCache = new Map<string, { at: number; value: Promise<FieldInfo[]> }>();
  const fresh = <T>(cache: Map<string, { at: number; value: Promise<T> }>, key: string, load: () => Promise<T>): Promise<T> => {
    const now = clock.nowMs();
    const hit = cache.get(key);
    if (hit !== undefined && now - hit.at < options.cacheTtlMs && now >= hit.at) return hit.value;
    if (cache.size > 10_000) cache.clear();
    const value = load();
    cache.set(key, { at: now, value });
    value.catch(() => cache.delete(key));
    return value;
  };
  const dayOf = (ms: number | undefined): number => Math.floor((ms ?? 0) / 86_400_000);
  // planQuery reads the catalog through the engine; this view answers from the cache.
  const planningEngine = new Proxy(engine, {
    get(target, property, receiver) {
      if (property === 'fieldCatalog') {
        return (tenant: string, indexIds: readonly string[], fromMs?: number, toMs?: number) =>
          fresh(catalogCache, JSON.stringify([tenant, indexIds, dayOf(fromMs), dayOf(toMs)]), () => target.fieldCatalog(tenant, indexIds, fromMs, toMs));
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return async (query): Promise<QueryRows> => {
    const tenantIndexes = await fresh(indexCache, query.tenantId, async () =>
      (await indexes.searchable(query.tenantId)).map((index) => ({ id: index.id, name: index.name, system: index.kind === 'system' })),
    );
    const range = { startNs: query.startNs, endNs: query.endNs };
    const plan = await planQuery(planningEngine, { tenant: query.tenantId, text: query.queryText, indexes: tenantIndexes, ...range });
    const events = isSliceable(plan.query);
    const compiled = events ? compileQuery(plan.analyzed, { tenant: query.tenantId, ...range, order: 'asc', limit: query.maxRows }) : plan.compiled;
    const result = await engine.query(compiled.sql, { settings: compiled.settings, ...(query.signal ? { signal: query.signal } : {}) });
    const rows = decodeRows(compiled.output, result.rows, plan.indexNames);
    const columns = compiled.output.kind === 'table' ? compiled.output.columns.map((c) => c.name) : eventColumns(rows);
    return { columns, rows: rows.map((row) => ({ rowId: row.rowId, columns: row.columns })) };
  };
}
