/**
 * search: one ad hoc query end to end — plan (parse, analyze, compile), execute on the engine,
 * decode rows. Imports core, query and engine; the HTTP and CLI layers call it.
 */
export { planQuery, type QueryPlan, type QueryRequest } from './plan-query.js';
export { decodeRows, type DecodedRow, type ResultRow, type RowId } from './decode-rows.js';
export { readFlatJson } from './flat-json-reader.js';
export {
  SearchService,
  eventColumns,
  type QueryExplanation,
  type QueryResult,
  type RunOptions,
  type TimeRange,
} from './search-service.js';
export type { IndexInfo } from '../query/index.js';
