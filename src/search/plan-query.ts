/**
 * One query from text to statement: parse, analyze against the tenant's indexes and field
 * catalog, compile. Errors come back typed by phase, with every diagnostic attached.
 */
import { QueryAnalysisError, QuerySyntaxError, floorDiv, formatPosition, type StoredLayout } from '../core/index.js';
import {
  analyzeQuery,
  compileQuery,
  hasAggregation,
  hasComparison,
  needsFieldCatalog,
  parseQuery,
  withStoredLayout,
  type AnalyzedQuery,
  type CompiledQuery,
  type FieldTypes,
  type IndexInfo,
  type LookupTableInfo,
  type Query,
} from '../query/index.js';

export interface QueryRequest {
  readonly tenant: string;
  readonly text: string;
  /** The tenant's live indexes, system ones included (the analyzer decides what is in scope). */
  readonly indexes: readonly IndexInfo[];
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly order?: 'asc' | 'desc';
  readonly limit?: number;
  /**
   * An aggregation reads only the JSON variants the field catalog lists for each column (ad hoc
   * queries). Rule windows leave it off: they read the newest events, where a type the catalog
   * read has not seen yet is likeliest, and most of them would gain a catalog statement.
   */
  readonly useFieldTypes?: boolean;
  /** Compile with parts of words looked up (CompileOptions.partialWords). */
  readonly partialWords?: boolean;
  /**
   * The tenant's lookup tables, read only for a query with a `lookup` command. Absent: a query
   * cannot name any (rule tests, which run apart from every tenant).
   */
  readonly lookupTables?: () => Promise<readonly LookupTableInfo[]>;
}

export interface QueryPlan {
  readonly query: Query;
  readonly analyzed: AnalyzedQuery;
  readonly compiled: CompiledQuery;
  /** Index id → name for the indexes in scope (decoding `@index`). */
  readonly indexNames: ReadonlyMap<string, string>;
}

/** What planning reads of the field catalog for some indexes over the days of a range. */
export interface CatalogFields {
  readonly paths: readonly string[];
  /** The types of each path; null when they may not list every type the range holds (field-catalog-cache.ts). */
  readonly types: FieldTypes | null;
}

/** Where planning reads the field catalog (the search service's FieldCatalogCache). */
export interface FieldCatalogSource {
  fields(tenant: string, indexIds: readonly string[], fromMs: number, toMs: number): Promise<CatalogFields>;
  /**
   * Whether a read now could give types at all (false while the tenant's events are being
   * written, or for a range the catalog cannot name): an aggregation that needs the catalog only
   * for its types then skips the read.
   */
  typesUsable(tenant: string, fromMs: number, toMs: number): boolean;
  /** Where the stored columns of these indexes are (the engine's field maps, which it caches). */
  storedLayout(tenant: string, indexIds: readonly string[]): Promise<StoredLayout>;
}

const noFields: CatalogFields = { paths: [], types: null };

/** Parses, analyzes and compiles a query; throws QuerySyntaxError or QueryAnalysisError. */
export async function planQuery(request: QueryRequest, catalog: FieldCatalogSource): Promise<QueryPlan> {
  const parsed = parseQuery(request.text);
  if (parsed.query === null) throw withDiagnostics(QuerySyntaxError, parsed.diagnostics);
  const ids = request.indexes.map((index) => index.id);
  // Whole milliseconds that cover the range: its catalog days are those of every event in it.
  const fromMs = Number(floorDiv(request.startNs, 1_000_000n));
  const toMs = Number(-floorDiv(-request.endNs, 1_000_000n));
  // The catalog is read for column-name wildcards, and for aggregations and comparisons that may
  // use its types; other queries (most event searches, and rule windows) skip it.
  const typed = request.useFieldTypes === true && (hasAggregation(parsed.query) || hasComparison(parsed.query)) && catalog.typesUsable(request.tenant, fromMs, toMs);
  const fields = typed || needsFieldCatalog(parsed.query) ? await catalog.fields(request.tenant, ids, fromMs, toMs) : noFields;
  const fieldTypes = typed ? fields.types : null;
  const lookupTables = request.lookupTables && parsed.query.pipeline.some((c) => c.kind === 'lookup') ? await request.lookupTables() : undefined;
  const analysis = analyzeQuery(parsed.query, {
    indexes: request.indexes,
    fieldPaths: fields.paths,
    ...(fieldTypes ? { fieldTypes } : {}),
    ...(lookupTables ? { lookupTables } : {}),
  });
  if (analysis.analyzed === null) throw withDiagnostics(QueryAnalysisError, analysis.diagnostics);
  // The layout of the indexes in scope, known only now: the analyzer decides the scope.
  const scope = analysis.analyzed.scope.map((index) => index.id);
  const analyzed = withStoredLayout(analysis.analyzed, await catalog.storedLayout(request.tenant, scope));
  const compiled = compileQuery(analyzed, {
    tenant: request.tenant,
    startNs: request.startNs,
    endNs: request.endNs,
    ...(request.order ? { order: request.order } : {}),
    ...(request.limit !== undefined ? { limit: request.limit } : {}),
    partialWords: request.partialWords === true,
  });
  const indexNames = new Map(analyzed.scope.map((index) => [index.id, index.name]));
  return { query: parsed.query, analyzed, compiled, indexNames };
}

function withDiagnostics(Type: typeof QuerySyntaxError | typeof QueryAnalysisError, diagnostics: readonly import('../core/index.js').Diagnostic[]): Error {
  const first = diagnostics[0];
  const where = first?.span ? ` at ${formatPosition(first.span.start)}` : '';
  const firstHint = (first as { hint?: unknown } | undefined)?.hint;
  const hint = typeof firstHint === 'string' ? `; hint: ${firstHint}` : '';
  const more = diagnostics.length > 1 ? ` and ${diagnostics.length - 1} more problem${diagnostics.length > 2 ? 's' : ''}` : '';
  return new Type(`${first?.message ?? 'invalid query'}${where}${hint}${more}`, {
    diagnostics,
    ...(first?.span ? { span: first.span } : {}),
  });
}
