/**
 * The one catalog of stable error codes. Codes are part of the public contract: clients and
 * tests match on them, so a code is never renamed once shipped. The HTTP status of each code
 * is chosen at the API edge (src/api/error-mapping.ts), not here.
 */
export const ErrorCodes = {
  // input the caller can fix
  invalidArgument: 'invalid_argument',
  invalidConfig: 'invalid_config',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  // identity and scope
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  tooManyRequests: 'too_many_requests',
  // ingestion
  ingestRejected: 'ingest_rejected',
  // the query language (used from the query issue on)
  querySyntax: 'query_syntax',
  queryAnalysis: 'query_analysis',
  // the parts the service stands on
  engineFailure: 'engine_failure',
  engineTimeout: 'engine_timeout',
  engineCancelled: 'engine_cancelled',
  engineMemoryLimit: 'engine_memory_limit',
  engineReadLimit: 'engine_read_limit',
  engineQueryTooLarge: 'engine_query_too_large',
  storeFailure: 'store_failure',
  unavailable: 'unavailable',
  /** The disk holding the data dir is full (HTTP 507); writes work again once space is freed. */
  insufficientStorage: 'insufficient_storage',
  internal: 'internal',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
