/**
 * ingest: turns bytes (NDJSON, JSON array, CloudTrail Records, plain text, gzip of any) into
 * flattened, timestamped events and writes them through the engine in batches.
 * Imports core and engine.
 */
export * from './ingest-types.js';
export { ingestStream, defaultBatchRows, defaultBatchBytes, defaultMaxReportedErrors, maxDocumentBytes } from './ingest-stream.js';
export { flattenEvent, maxFlattenDepth, type FlatEvent, type FlatValue } from './flatten-event.js';
export { addStoredColumns } from './build-event-row.js';
export { isJsonObject, parseJsonText } from './parse-json-text.js';
export { parseTimestamp } from './parse-timestamp.js';
export { classifyFirstLine, isBlankLine, secondLineIsEvent, type FirstLineVerdict } from './detect-format.js';
export { describeJsonFailure, parseJsonLossless, type JsonParseResult } from './parse-json-lossless.js';
