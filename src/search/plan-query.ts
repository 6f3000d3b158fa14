/**
 * One query from text to statement: parse, analyze against the tenant's indexes and field
 * catalog, compile. Errors come back typed by phase, with every diagnostic attached.
 */
import { QueryAnalysisError, QuerySyntaxError, formatPosition } from '../core/index.js';
import {
  analyzeQuery,
  compileQuery,
  needsFieldCatalog,
  parseQuery,
  type AnalyzedQuery,
  type CompiledQuery,
  type IndexInfo,
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
}

export interface QueryPlan {
  readonly query: Query;
  readonly analyzed: AnalyzedQuery;
  readonly compiled: CompiledQuery;
  /** Index id → name for the indexes in scope (decoding `@index`). */
  readonly indexNames: ReadonlyMap<string, string>;
}

/** Where planning reads the field catalog (the search service's FieldCatalogCache). */
export interface FieldPathSource {
  fieldPaths(tenant: string, indexIds: readonly string[], fromMs: number, toMs: number): Promise<readonly string[]>;
}

/** Parses, analyzes and compiles a query; throws QuerySyntaxError or QueryAnalysisError. */
export async function planQuery(request: QueryRequest, catalog: FieldPathSource): Promise<QueryPlan> {
  const parsed = parseQuery(request.text);
  if (parsed.query === null) throw withDiagnostics(QuerySyntaxError, parsed.diagnostics);
  const ids = request.indexes.map((index) => index.id);
  const fromMs = nsToMs(request.startNs);
  const toMs = nsToMs(request.endNs);
  // Only column-name wildcards read the catalog: most queries (and rule windows) skip it.
  const fieldPaths = needsFieldCatalog(parsed.query) ? await catalog.fieldPaths(request.tenant, ids, fromMs, toMs) : [];
  const analysis = analyzeQuery(parsed.query, { indexes: request.indexes, fieldPaths });
  if (analysis.analyzed === null) throw withDiagnostics(QueryAnalysisError, analysis.diagnostics);
  const compiled = compileQuery(analysis.analyzed, {
    tenant: request.tenant,
    startNs: request.startNs,
    endNs: request.endNs,
    ...(request.order ? { order: request.order } : {}),
    ...(request.limit !== undefined ? { limit: request.limit } : {}),
  });
  const indexNames = new Map(analysis.analyzed.scope.map((index) => [index.id, index.name]));
  return { query: parsed.query, analyzed: analysis.analyzed, compiled, indexNames };
}

function withDiagnostics(
  Type: typeof QuerySyntaxError | typeof QueryAnalysisError,
  diagnostics: readonly import('../core/index.js').Diagnostic[],
): Error {
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

function nsToMs(ns: bigint): number {
  return Number(ns / 1_000_000n);
}
