/**
 * search: ad hoc queries end to end (SearchService: time slices, limits, progress, cancel,
 * histograms, field values) and window queries (WindowQueries: rule windows alone or batched, rule
 * tests, previews), planned by one QueryPlanner. Imports core, query, engine and ingest.
 */
export { adhocLimits, checkAdhocQuery, checkRange, type AdhocQuery, type AdhocQueryBody, type LogEventId } from './adhoc-request.js';
export { fieldValueLimits, type FieldValues } from './field-values.js';
export { bucketOriginNs, histogramLimits, type BucketPlan } from './histogram-buckets.js';
export { formatBucketTime, histogramColumns } from './histogram-run.js';
export type { MinuteWindow, WindowRows } from './rule-windows.js';
export { planQuery, type QueryPlan, type QueryRequest } from './plan-query.js';
export { FieldCatalogCache } from './field-catalog-cache.js';
export { decodeRows, wireRowId, type DecodedRow, type ResultRow, type RowId, type WireRowId } from './decode-rows.js';
export { readCompiled, readEvents } from './read-events.js';
export type { QuerySnapshot, QueryStatus } from './query-run.js';
export type { ShortRangeQuery } from './short-range-query.js';
export { QueryPlanner } from './query-planner.js';
export { WindowQueries, type WindowQueryRequest } from './window-queries.js';
export type { SharedQueryRecord, SharedQueryRecords } from './shared-queries.js';
export {
  SearchService,
  defaultSearchSettings,
  type HistogramBody,
  type StartedHistogram,
  type QueryExplanation,
  type QueryResult,
  type RunOptions,
  type SearchHooks,
  type SearchSettings,
  type TimeRange,
} from './search-service.js';
export type { IndexInfo, LookupTableInfo } from '../query/index.js';
