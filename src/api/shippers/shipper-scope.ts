import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCodes, TooManyRequestsError, VigilError } from '../../core/index.js';
import type { KeyService, TenantService } from '../../services/index.js';
import type { ShipperIngest, ShipperIngestResult } from '../../shippers/index.js';
import { httpStatusOf } from '../error-mapping.js';
import type { ApiMetrics } from '../metrics.js';

/** What every protocol's routes need. */
export interface ShipperRouteDeps {
  readonly keys: KeyService;
  /** Reads a tenant given by name (`default`) as its id, as `/v1` does. */
  readonly tenants: TenantService;
  readonly ingest: ShipperIngest;
  readonly metrics: ApiMetrics;
  /** Largest body, as sent and decoded. */
  readonly maxBodyBytes: number;
}

/** A failed request, classified once for every protocol to answer in its own shape. */
export interface ShipperFailure {
  readonly status: number;
  readonly kind: 'bad_request' | 'unauthenticated' | 'forbidden' | 'not_found' | 'too_large' | 'unsupported_media' | 'throttled' | 'unavailable';
  readonly message: string;
  readonly retryAfterS: number | null;
  /** The error itself, for protocols that tell more cases apart (HEC's token codes). */
  readonly error: unknown;
}

/**
 * Classifies an error for a shipper's answer. Nothing becomes a 500: a failure of the service
 * itself (the engine, the store, a full disk) is 503, which every shipper retries, and is logged.
 */
export function classifyShipperError(error: unknown, request: FastifyRequest): ShipperFailure {
  if (error instanceof TooManyRequestsError) return { status: 429, kind: 'throttled', message: error.message, retryAfterS: error.retryAfterS, error };
  const status = error instanceof VigilError ? httpStatusOf(error.code) : ((error as { statusCode?: number }).statusCode ?? 500);
  const message = error instanceof Error ? error.message : String(error);
  if (status >= 500 || status < 400) {
    request.log.error({ err: error }, 'shipper request failed');
    const unavailable = error instanceof VigilError && error.code === ErrorCodes.unavailable;
    return {
      status: 503,
      kind: 'unavailable',
      message: unavailable ? message : `the events could not be written now (request id ${request.id}); send them again`,
      retryAfterS: 5,
      error,
    };
  }
  switch (status) {
    case 401:
      return { status, kind: 'unauthenticated', message, retryAfterS: null, error };
    case 403:
      return { status, kind: 'forbidden', message, retryAfterS: null, error };
    case 404:
      return { status, kind: 'not_found', message, retryAfterS: null, error };
    case 413:
      return { status, kind: 'too_large', message, retryAfterS: null, error };
    case 415:
      return { status, kind: 'unsupported_media', message, retryAfterS: null, error };
    case 429:
      return { status, kind: 'throttled', message, retryAfterS: 1, error };
    default:
      return { status: 400, kind: 'bad_request', message, retryAfterS: null, error };
  }
}

/**
 * Registers one protocol's routes in their own scope: bodies reach the handlers unparsed (each
 * protocol reads its own wire format), every failure is answered by `answer` in the protocol's
 * shape, and each request is counted under the protocol.
 */
export function registerShipperScope(
  app: FastifyInstance,
  protocol: string,
  deps: ShipperRouteDeps,
  answer: (failure: ShipperFailure, request: FastifyRequest, reply: FastifyReply) => void,
  routes: (scope: FastifyInstance) => void,
): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.setErrorHandler((error, request, reply) => {
      const failure = classifyShipperError(error, request);
      if (failure.retryAfterS !== null) void reply.header('retry-after', String(failure.retryAfterS));
      answer(failure, request, reply);
    });
    scope.addHook('onResponse', async (_request, reply) => {
      deps.metrics.ingestRequests.inc({ protocol, status: String(reply.statusCode) });
    });
    routes(scope);
  });
}

/** Counts a request's events under its protocol. */
export function recordShipperIngest(deps: ShipperRouteDeps, protocol: string, result: ShipperIngestResult): void {
  deps.metrics.recordIngest(protocol, result);
}

/** The index a request names for records that name none: `X-Vigil-Index`, else `?index=`, else the protocol's default. */
export function requestIndex(request: FastifyRequest, fallback: string): string {
  const header = request.headers['x-vigil-index'];
  if (typeof header === 'string' && header !== '') return header;
  const query = (request.query as { index?: unknown }).index;
  return typeof query === 'string' && query !== '' ? query : fallback;
}

/** Throws the failure of a record that could not be written now, so the whole request is retried. */
export function throwIfAnyFailed(result: ShipperIngestResult): void {
  const failed = result.outcomes.find((o) => o.kind === 'failed');
  // eslint-disable-next-line no-restricted-syntax -- rethrows the record's own failure, already typed by ingest when it was an Error
  if (failed !== undefined && failed.kind === 'failed') throw failed.cause instanceof Error ? failed.cause : new Error(failed.error);
}
