/**
 * ingest: turns bytes (NDJSON, JSON array, CloudTrail Records, plain text, gzip of any) into
 * flattened, timestamped events and writes them through the engine in batches.
 * Imports core and engine.
 */
export * from './ingest-types.js';
