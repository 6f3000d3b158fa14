/**
 * Gives a parsed query its meaning in one tenant: which indexes it reads (D18), what its
 * wildcard column names expand to (D16), and whether every pipeline stage refers to columns the
 * stage before it produces. Returns every problem found, each with its span.
 */
import { ErrorCodes, errorDiagnostic, type Diagnostic, type StoredLayout } from '../../core/index.js';
import type { ColumnName, IndexFilter, LookupCommand, Query } from '../ast.js';
import { collectIndexFilters, confinedIndexIds } from '../index-filters.js';
import { columnNameMatcher, isEveryColumn, plainColumnName } from '../column-names.js';
import { checkPipeline } from './check-pipeline.js';
import { checkLookups } from './check-lookups.js';
import type { LookupTableInfo } from '../lookup-outputs.js';
import { checkPatternCost } from './pattern-cost.js';
import { checkQuerySize } from './query-size.js';
import { isCanonicalNumber } from '../canonical-number.js';
import { forEachFilterColumn, forEachFilterLeaf, forEachQueryFilterLeaf } from './filter-columns.js';

/** An index the tenant has; system indexes (`_detections`, `_audit`) are read only when named. */
export interface IndexInfo {
  readonly id: string;
  readonly name: string;
  readonly system: boolean;
}

/**
 * Column path → the engine types the field catalog lists for it over the query's indexes and
 * days (`String`, `Int64`, `Float64`, `Null` for JSON null). A path it does not hold has no value
 * in any of those events.
 */
export type FieldTypes = ReadonlyMap<string, readonly string[]>;

/** What the analyzer needs to know about the tenant: its indexes and the columns seen in them. */
export interface AnalysisContext {
  readonly indexes: readonly IndexInfo[];
  /** Column paths of the field catalog over the indexes in scope (wildcard names expand to these). */
  readonly fieldPaths: readonly string[];
  /**
   * The catalog's types of those paths, when the caller trusts them to list every value the
   * query can read (search: aggregations). Absent: unknown.
   */
  readonly fieldTypes?: FieldTypes;
  /** The tenant's lookup tables (`| lookup NAME`). Absent: none can be named here (rule tests). */
  readonly lookupTables?: readonly LookupTableInfo[];
}

export interface AnalyzedQuery {
  readonly query: Query;
  /**
   * Indexes the query reads: every user index, plus the system indexes it names; only those its
   * event filter's `@index` selectors confine it to, when they do (`@index=a x`, not `@index=a or x`).
   */
  readonly scope: readonly IndexInfo[];
  /** Index ids each `@index` selector stands for. */
  readonly indexTargets: ReadonlyMap<IndexFilter, readonly string[]>;
  /** Catalog paths a wildcard column name of the event filter stands for. */
  readonly columnExpansions: ReadonlyMap<ColumnName, readonly string[]>;
  /** Everything the catalog knows for this scope, for free text that must go column by column. */
  readonly fieldPaths: readonly string[];
  /**
   * The catalog's types of each path: the compiler reads only those typed sub-columns. Absent:
   * unknown, and every sub-column is read.
   */
  readonly fieldTypes?: FieldTypes;
  /** The table each `lookup` command reads. */
  readonly lookups: ReadonlyMap<LookupCommand, LookupTableInfo>;
  /**
   * Where the stored columns of the indexes in scope are (the engine's field maps), set by the
   * caller once the scope is known (`withStoredLayout`). Absent: no map is known, so every
   * column is read from the rest maps (`restOnlyLayout`).
   */
  readonly storedLayout?: StoredLayout;
}

/** The analyzed query reading stored columns where `layout` says they are. */
export function withStoredLayout(analyzed: AnalyzedQuery, layout: StoredLayout): AnalyzedQuery {
  return { ...analyzed, storedLayout: layout };
}

export interface AnalysisResult {
  readonly analyzed: AnalyzedQuery | null;
  readonly diagnostics: readonly Diagnostic[];
}

/** Analyzes a parsed query against the tenant's indexes and field catalog. */
export function analyzeQuery(query: Query, context: AnalysisContext): AnalysisResult {
  const diagnostics: Diagnostic[] = [];
  const indexTargets = new Map<IndexFilter, readonly string[]>();
  const named = new Set<string>();
  const mainFilters: IndexFilter[] = [];
  collectIndexFilters(query.filter, mainFilters);
  // Only the event filter's selectors bring system indexes into scope (D18); a `where` runs
  // on the table the event filter produced.
  const whereFilters: IndexFilter[] = [];
  for (const command of query.pipeline) if (command.kind === 'where') collectIndexFilters(command.filter, whereFilters);
  for (const filter of [...mainFilters, ...whereFilters]) {
    const widensScope = mainFilters.includes(filter);
    const ids: string[] = [];
    for (const target of filter.targets) {
      const found = context.indexes.find((index) => (target.id !== null ? index.id === target.id : index.name === target.name));
      if (found === undefined) {
        const what = target.id !== null ? `index id '${target.id}'` : `index '${target.name ?? ''}'`;
        diagnostics.push(errorDiagnostic(ErrorCodes.queryAnalysis, `unknown ${what}`, { span: target.span }));
        continue;
      }
      ids.push(found.id);
      if (widensScope) named.add(found.id);
    }
    indexTargets.set(filter, ids);
  }

  const columnExpansions = new Map<ColumnName, readonly string[]>();
  const expand = (column: ColumnName): void => {
    if (plainColumnName(column) !== null || isEveryColumn(column) || columnExpansions.has(column)) return;
    const matches = columnNameMatcher(column);
    columnExpansions.set(column, context.fieldPaths.filter(matches));
  };
  forEachFilterColumn(query.filter, expand);

  const resolved = checkLookups(query, context.lookupTables);
  diagnostics.push(...resolved.diagnostics);
  diagnostics.push(...checkPipeline(query, expand, (command) => resolved.lookups.get(command)?.columns ?? []));
  const tooLarge = checkQuerySize(query, columnExpansions);
  if (tooLarge !== null) diagnostics.push(tooLarge);
  diagnostics.push(...checkPatternCost(query));
  // The event filter's `@index` selectors narrow the scope: the statement then bounds `idx` to
  // those indexes alone, and the time histogram and time extents count only theirs.
  const confined = confinedIndexIds(query.filter, indexTargets);
  const scope = context.indexes.filter((index) => (!index.system || named.has(index.id)) && (confined === null || confined.has(index.id)));
  if (diagnostics.length > 0) return { analyzed: null, diagnostics };
  return {
    analyzed: {
      query,
      scope,
      indexTargets,
      columnExpansions,
      fieldPaths: context.fieldPaths,
      ...(context.fieldTypes ? { fieldTypes: context.fieldTypes } : {}),
      lookups: resolved.lookups,
    },
    diagnostics,
  };
}

/**
 * Whether compiling the query needs the field catalog's columns. Planning skips the catalog read
 * for every other query. The catalog is needed by
 * - column-name wildcards (`**`, `a.*`, `*Id`), expanded from it;
 * - free text that is searched column by column rather than in `search_text`: a number written
 *   in other than canonical text (`200.0`), and free text in `where` (after `eval` or `rename`
 *   it searches the stage's columns, the stored ones included).
 */
export function needsFieldCatalog(query: Query): boolean {
  let needed = false;
  const see = (column: ColumnName): void => {
    if (plainColumnName(column) === null) needed = true;
  };
  forEachFilterColumn(query.filter, see);
  checkPipeline(query, see);
  forEachFilterLeaf(query.filter, (leaf) => {
    if (leaf.kind === 'text' && leaf.value.kind === 'number' && !isCanonicalNumber(leaf.value)) needed = true;
  });
  for (const command of query.pipeline) {
    if (command.kind !== 'where') continue;
    forEachFilterLeaf(command.filter, (leaf) => {
      if (leaf.kind === 'text') needed = true;
    });
  }
  return needed;
}

/**
 * Whether the query aggregates (`count`, `groupbycount`, `stats`, ...): it then runs as one
 * statement over the whole range, where reading only the stored types of each column pays.
 */
export function hasAggregation(query: Query): boolean {
  return query.pipeline.some((command) => command.kind === 'aggregate' || command.kind === 'groupbycount' || command.kind === 'stats');
}

/**
 * Whether the query compares a column with a number (`<`, `<=`, `>`, `>=`, in the filter or a
 * `where`): knowing the column's stored types then spares every row the exact path for decimal
 * strings that a column stored only as numbers never takes (docs/query-language.md).
 */
export function hasComparison(query: Query): boolean {
  let found = false;
  forEachQueryFilterLeaf(query, (leaf) => {
    if (leaf.kind === 'compare') found = true;
  });
  return found;
}
