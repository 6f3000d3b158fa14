/**
 * query: the language, pure, no I/O — syntax tree, parser, printer, analyzer, compiler to
 * ClickHouse SQL, reference evaluator. Imports only core.
 */

// The syntax: tree, parser, printer, diagnostics.
export * from './ast.js';
export { parseQuery, parseQueryOrThrow, parseScalar, type ParseResult, type ScalarParseResult } from './parser/parser.js';
export { printQuery, printFilter, printScalar, printAggregationCall, printColumnAnywhere, printColumnName } from './printer.js';
export { formatDiagnostic } from './format-diagnostic.js';
export { renderTree } from './render-tree.js';
export { stripSpans, type WithoutSpans } from './strip-spans.js';
export { indexTargetsOf } from './index-filters.js';
export type { QueryDiagnostic } from './syntax-diagnostic.js';

// Meaning: column names and result columns shared by every pass.
export { canonicalColumn, isSystemColumn, plainColumnName, systemColumns } from './column-names.js';
export { aggregateColumns, outputColumns, statsColumnName } from './output-columns.js';

// The analyzer and the compiler to ClickHouse SQL.
export {
  analyzeQuery,
  hasAggregation,
  hasComparison,
  needsFieldCatalog,
  withStoredLayout,
  type AnalysisContext,
  type AnalysisResult,
  type AnalyzedQuery,
  type FieldTypes,
  type IndexInfo,
} from './analyzer/analyze-query.js';
export { compileQuery, compileTimeHistogram, defaultHeadRows, isSliceable, type CompileOptions, type CompiledOutput, type CompiledQuery } from './compiler/compile-query.js';
export { compileEventBatch, compileEventFilter, type CompiledEventBatch, type EventBatchOptions, type EventFilter } from './compiler/compile-event-batch.js';
export { compileWindowedQuery, rowWisePrefix, windowIndexColumn, type WindowSeries, type WindowedOptions } from './compiler/compile-windowed-query.js';
export { compileRowHistogram, type CompiledRowHistogram, type RowHistogramOptions } from './compiler/compile-row-histogram.js';
export { narrowsByTextIndex } from './compiler/compile-prefilter.js';
export type { RowPosition } from './compiler/row-bounds.js';
export type { LookupTableInfo } from './lookup-outputs.js';
export type { PredicatePlan } from './compiler/compile-filter.js';
export type { RawColumnOp, TableColumn } from './compiler/sql-env.js';
export { prettySql } from './compiler/pretty-sql.js';
export { rowIdentityPlan, type RowIdentityPlan } from './compiler/row-identity.js';

// The reference evaluator: the oracle of the property tests, and the scalar evaluator of templates.
export * from './evaluator/index.js';
