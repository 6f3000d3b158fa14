/**
 * query/evaluator: the reference evaluator, a small interpreter of the syntax tree over flattened
 * events that follows docs/query-language.md literally: the oracle the compiled SQL is tested
 * against, and the scalar evaluator of alert templates. Imports core, the tree and the printer.
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
