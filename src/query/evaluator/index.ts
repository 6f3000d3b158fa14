/**
 * query/evaluator: the reference evaluator of the query language. A small interpreter of the
 * syntax tree over flattened events that follows docs/query-language.md literally; it is the
 * oracle the compiled SQL is tested against, and its scalar evaluator renders alert templates.
 * Main entry points: `evaluateQuery`, `evaluateFilter`, `evaluateScalar`, `matchesTerm`.
 * It imports core, the syntax tree and the printer (for default `stats` column names); no I/O.
 */
export type { EvalEvent, EvalTable, ScalarValue, TableValue } from './eval-table.js';
export { evaluateQuery } from './evaluate-query.js';
export type { LookupTableData } from './evaluate-lookup.js';
export { evaluateFilter, type FilterOptions } from './evaluate-filter.js';
export { evaluateScalar, toTableValue } from './evaluate-scalar.js';
export { matchesTerm, isTokenChar, isWildcardOnly } from './matches-term.js';
export { compareTableValues, compareUtf8 } from './compare-table-values.js';
export { valueText, isDecimalText } from './value-text.js';
export { formatEventDatetime } from './system-columns.js';
