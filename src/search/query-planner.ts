import type { Clock } from '../core/index.js';
import type { Engine } from '../engine/index.js';
import type { IndexInfo, LookupTableInfo } from '../query/index.js';
import { FieldCatalogCache } from './field-catalog-cache.js';
import { planQuery, type QueryPlan, type QueryRequest } from './plan-query.js';
import type { TimeRange } from './query-result.js';

/** How a query is planned: a short-range query's order and limit; ad hoc ones use field types. */
export type PlanOptions = Pick<QueryRequest, 'order' | 'limit' | 'useFieldTypes' | 'partialWords'>;

/**
 * Plans queries of a tenant with its live indexes, its lookup tables and the (briefly cached)
 * field catalog. Ad hoc search and window queries share one, so an ingest that invalidates the
 * catalog does so for both.
 */
export class QueryPlanner {
  private readonly catalog: FieldCatalogCache;

  constructor(
    engine: Engine,
    /** The tenant's live indexes, system ones included: read for every query, so a new index is searchable at once. */
    private readonly indexesOf: (tenant: string) => Promise<readonly IndexInfo[]>,
    clock: Clock,
    /** The tenant's lookup tables, for queries with a `lookup` command; without it they cannot name any. */
    private readonly lookupTablesOf?: (tenant: string) => Promise<readonly LookupTableInfo[]>,
  ) {
    this.catalog = new FieldCatalogCache(engine, clock);
  }

  /** Plans a query over the range (already clamped to the span events can have). */
  async plan(tenant: string, text: string, range: TimeRange, options: PlanOptions = {}): Promise<QueryPlan> {
    const indexes = await this.indexesOf(tenant);
    const { lookupTablesOf } = this;
    const lookupTables = lookupTablesOf ? { lookupTables: () => lookupTablesOf(tenant) } : {};
    return planQuery({ tenant, text, indexes, startNs: range.startNs, endNs: range.endNs, ...options, ...lookupTables }, this.catalog);
  }

  /** See SearchService.writingEvents. */
  writingEvents(tenant: string): () => void {
    return this.catalog.writing(tenant);
  }
}
