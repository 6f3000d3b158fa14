import type { FastifyInstance } from 'fastify';

/**
 * Replaces Fastify's JSON body parser with one that lets an endpoint without a body schema
 * (`cancel_query`, `alert/{id}/resend`) be called with `Content-Type: application/json` and no
 * body, as many clients send that header on every POST. An endpoint that takes a body still
 * refuses an empty one; everything else (proto-poisoning checks, errors) is Fastify's parser.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && request.routeOptions.schema?.body === undefined) {
      done(null, undefined);
      return;
    }
    void parseJson(request, body as string, done); // it answers through done
  });
}
