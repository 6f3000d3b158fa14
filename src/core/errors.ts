import { ErrorCodes, type ErrorCode } from './error-codes.js';
import type { Diagnostic } from './diagnostic.js';
import type { Span } from './span.js';

export interface VigilErrorOptions {
  readonly cause?: unknown;
  readonly span?: Span;
  /** The input field at fault, dotted, e.g. `body.retention_days` or `query.tenant_id`. */
  readonly field?: string;
  readonly diagnostics?: readonly Diagnostic[];
}

/**
 * Base of every error the service raises on purpose. Each phase has its own subclass; the
 * `code` comes from the one catalog and the HTTP status is chosen only at the API edge.
 * Messages are lowercase, name the thing, and end without a period.
 */
export class VigilError extends Error {
  readonly code: ErrorCode;
  readonly span?: Span;
  readonly field?: string;
  readonly diagnostics: readonly Diagnostic[];

  constructor(code: ErrorCode, message: string, options: VigilErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    if (options.span) this.span = options.span;
    if (options.field) this.field = options.field;
    this.diagnostics = options.diagnostics ?? [];
  }
}

/** Input that fails validation: a field, a parameter, a file the user gave. */
export class ValidationError extends VigilError {
  constructor(message: string, options: VigilErrorOptions = {}) {
    super(ErrorCodes.invalidArgument, message, options);
  }
}

export class ConfigError extends VigilError {
  constructor(message: string, options: VigilErrorOptions = {}) {
    super(ErrorCodes.invalidConfig, message, options);
  }
}

export class PayloadTooLargeError extends VigilError {
  constructor(message: string, options: VigilErrorOptions = {}) {
    super(ErrorCodes.payloadTooLarge, message, options);
  }
}

/** A body in a media type or content encoding the endpoint does not take. */
export class UnsupportedMediaTypeError extends VigilError {
  constructor(message: string, options: VigilErrorOptions = {}) {
    super(ErrorCodes.unsupportedMediaType, message, options);
  }
}

export class UnauthenticatedError extends VigilError {
  constructor(message = 'missing or unknown api key', options: VigilErrorOptions = {}) {
    super(ErrorCodes.unauthenticated, message, options);
  }
}

export class ForbiddenError extends VigilError {
  constructor(message: string, options: VigilErrorOptions = {}) {
    super(ErrorCodes.forbidden, message, options);
  }
}

/** An object that does not exist, or exists for another tenant (never say which). */
export class NotFoundError extends VigilError {
  constructor(message: string, options: VigilErrorOptions = {}) {
    super(ErrorCodes.notFound, message, options);
  }
}

export class ConflictError extends VigilError {
  constructor(message: string, options: VigilErrorOptions = {}) {
    super(ErrorCodes.conflict, message, options);
  }
}

/** A whole ingest request refused (unknown format, unreadable gzip); bad lines are not errors. */
export class IngestError extends VigilError {
  constructor(message: string, options: VigilErrorOptions = {}) {
    super(ErrorCodes.ingestRejected, message, options);
  }
}

export type EngineErrorCode =
  | typeof ErrorCodes.engineFailure
  | typeof ErrorCodes.engineTimeout
  | typeof ErrorCodes.engineCancelled
  | typeof ErrorCodes.engineMemoryLimit
  | typeof ErrorCodes.engineReadLimit
  | typeof ErrorCodes.engineQueryTooLarge
  | typeof ErrorCodes.unavailable
  | typeof ErrorCodes.insufficientStorage;

/** The events engine (ClickHouse) failed, timed out, ran out of memory or was cancelled. */
export class EngineError extends VigilError {
  constructor(message: string, options: VigilErrorOptions & { code?: EngineErrorCode } = {}) {
    super(options.code ?? ErrorCodes.engineFailure, message, options);
  }
}

export type StoreErrorCode = typeof ErrorCodes.storeFailure | typeof ErrorCodes.unavailable | typeof ErrorCodes.insufficientStorage;

/** The metadata store failed; `unavailable` or `insufficient_storage` when its disk is the cause. */
export class StoreError extends VigilError {
  constructor(message: string, options: VigilErrorOptions & { code?: StoreErrorCode } = {}) {
    super(options.code ?? ErrorCodes.storeFailure, message, options);
  }
}

/** Raised by exhaustive switches: a new union member that some pass forgot to handle. */
export function assertNever(value: never, what = 'value'): never {
  // eslint-disable-next-line no-restricted-syntax -- internal invariant: the type checker proved this unreachable
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}

/** The message of anything thrown, for logs and reports. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Query text that does not parse; `diagnostics` lists every problem with its span. */
export class QuerySyntaxError extends VigilError {
  constructor(message: string, options: VigilErrorOptions = {}) {
    super(ErrorCodes.querySyntax, message, options);
  }
}

/** A query that parses but cannot mean anything here: an unknown index, a column a stage lacks. */
export class QueryAnalysisError extends VigilError {
  constructor(message: string, options: VigilErrorOptions = {}) {
    super(ErrorCodes.queryAnalysis, message, options);
  }
}

/** Over a concurrency limit; the caller may retry after `retryAfterS` seconds. */
export class TooManyRequestsError extends VigilError {
  readonly retryAfterS: number;
  constructor(message: string, retryAfterS: number, options: VigilErrorOptions = {}) {
    super(ErrorCodes.tooManyRequests, message, options);
    this.retryAfterS = retryAfterS;
  }
}
