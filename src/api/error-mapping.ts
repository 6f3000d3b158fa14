import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCodes, TooManyRequestsError, VigilError, type Diagnostic, type ErrorCode } from '../core/index.js';

/** The only place where an error code becomes an HTTP status. */
export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case ErrorCodes.invalidArgument:
    case ErrorCodes.ingestRejected:
    case ErrorCodes.querySyntax:
    case ErrorCodes.queryAnalysis:
    case ErrorCodes.engineQueryTooLarge:
      return 400;
    case ErrorCodes.unauthenticated:
      return 401;
    case ErrorCodes.forbidden:
      return 403;
    case ErrorCodes.notFound:
      return 404;
    case ErrorCodes.conflict:
    case ErrorCodes.engineCancelled:
      return 409;
    case ErrorCodes.payloadTooLarge:
      return 413;
    case ErrorCodes.tooManyRequests:
      return 429;
    case ErrorCodes.unsupportedMediaType:
      return 415;
    case ErrorCodes.engineMemoryLimit:
    case ErrorCodes.engineReadLimit:
      return 422;
    case ErrorCodes.unavailable:
      return 503;
    case ErrorCodes.insufficientStorage:
      return 507;
    case ErrorCodes.engineTimeout:
      return 504;
    case ErrorCodes.invalidConfig:
    case ErrorCodes.engineFailure:
    case ErrorCodes.storeFailure:
    case ErrorCodes.internal:
      return 500;
  }
}

/**
 * Fastify's error handler: every failure answers `{"error": "..."}`. Input problems keep their
 * message (it names the field); internal failures are logged in full and answered with a generic
 * message carrying the request id, so nothing internal leaks.
 */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof VigilError) {
    const status = httpStatusOf(error.code);
    // A time limit, an unavailable dependency or a full disk is the caller's to know (and the
    // operator's: logged with its cause); other 5xx stay generic.
    const tellsCaller = error.code === ErrorCodes.engineTimeout || error.code === ErrorCodes.unavailable || error.code === ErrorCodes.insufficientStorage;
    if (status >= 500 && !tellsCaller) {
      request.log.error({ err: error, code: error.code }, 'request failed');
      void reply.status(status).send({ error: `internal error (request id ${request.id})` });
      return;
    }
    if (status >= 500 && error.code !== ErrorCodes.engineTimeout) request.log.warn({ err: error, code: error.code }, 'request failed: the service cannot serve it now');
    // Name the field at fault when the message does not already.
    const message = error.field && !error.message.includes(error.field) ? `${error.field}: ${error.message}` : error.message;
    if (error instanceof TooManyRequestsError) void reply.header('retry-after', String(error.retryAfterS));
    // Query errors list every problem with its position, so a client can point at each.
    const diagnostics = error.diagnostics.filter((d) => d.span !== undefined);
    void reply.status(status).send(diagnostics.length === 0 ? { error: message } : { error: message, diagnostics: diagnostics.map(diagnosticBody) });
    return;
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    void reply.status(400).send({ error: describeValidation(fastifyError) });
    return;
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    void reply.status(status).send({ error: clientMessage(fastifyError) });
    return;
  }
  request.log.error({ err: error }, 'unhandled error');
  void reply.status(500).send({ error: `internal error (request id ${request.id})` });
}

function describeValidation(error: FastifyError): string {
  const first = mostSpecific(error.validation ?? []);
  if (!first) return error.message;
  const where = error.validationContext ?? 'request';
  const params = first.params as Record<string, unknown>;
  const path = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const at = `${where}${path ? `.${path}` : ''}`;
  if (first.keyword === 'required') return `${at}: missing required field ${String(params.missingProperty)}`;
  if (first.keyword === 'additionalProperties') return `${at}: unknown field ${String(params.additionalProperty)}`;
  if (first.keyword === 'enum' && Array.isArray(params.allowedValues)) return `${at} must be one of ${params.allowedValues.join(', ')}`;
  return `${at} ${first.message ?? 'is invalid'}`;
}

/**
 * The error to report. A failed `anyOf` lists each branch's error before its own; the one deepest
 * in the document names the actual problem (an object item's bad field rather than "must be
 * null"). Otherwise the first error, as Ajv stops there.
 */
function mostSpecific(errors: NonNullable<FastifyError['validation']>): NonNullable<FastifyError['validation']>[number] | undefined {
  const depth = (e: { instancePath: string }) => (e.instancePath === '' ? 0 : e.instancePath.split('/').length);
  let best = errors[0];
  for (const candidate of errors) {
    if (candidate.keyword === 'anyOf') continue;
    if (best === undefined || best.keyword === 'anyOf' || depth(candidate) > depth(best)) best = candidate;
  }
  return best;
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `unsupported Content-Type; send application/json`;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'request body is empty; send a JSON object';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'request body is not valid JSON';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'request body size does not match Content-Length';
    default:
      return error.message.replace(/^FST_\w+: /, '');
  }
}

/** One problem of a query, with its 1-based line and column and the hint when there is one. */
function diagnosticBody(d: Diagnostic): { message: string; line: number; column: number; end_line: number; end_column: number; hint?: string } {
  const span = d.span as NonNullable<Diagnostic['span']>;
  const hint = (d as { hint?: unknown }).hint;
  return {
    message: d.message,
    line: span.start.line,
    column: span.start.column,
    end_line: span.end.line,
    end_column: span.end.column,
    ...(typeof hint === 'string' ? { hint } : {}),
  };
}
