/**
 * The answers Fastify and Node would otherwise write themselves, before a request reaches a route
 * or the error handler: a URL the router cannot decode, a path parameter over the router's length
 * bound, and a request the HTTP parser refuses. Each answers `{"error": "..."}` like every other
 * failure, and none echoes the request back (a path can be kilobytes long).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Path parameters the router accepts. Above the 16 KiB Node allows for a request line and its
 * headers, so the router never refuses an id: the route answers (a long query id is simply not
 * found, and cancelling it is the usual 204).
 */
export const maxPathParamLength = 65_536;

/** Fastify's `frameworkErrors`: errors raised while routing, before any hook runs. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      void reply.status(400).send({ error: 'malformed url: a path segment is not valid percent-encoding' });
      return;
    case 'FST_ERR_MAX_PARAM_LENGTH':
      void reply.status(414).send({ error: 'request path is too long' });
      return;
    default:
      void reply.status(error.statusCode ?? 400).send({ error: 'bad request' });
  }
}

/** Fastify's `clientErrorHandler`: a request Node's HTTP parser refused (no route, no reply object). */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request timed out']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'request headers are too large']
        : [400, 'malformed http request'];
  const body = JSON.stringify({ error: message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
