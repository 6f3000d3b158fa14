import type { IncomingHttpHeaders } from 'node:http';

/**
 * `GET /` is two things: the console a browser opens, and the version document every
 * Elasticsearch client reads first. A request is an Elasticsearch client's (docs/shippers.md,
 * "GET / and the console") when it carries an Authorization header or an Elastic client header
 * (`X-Elastic-Client-Meta`, `X-Elastic-Product-Origin`), or does not accept `text/html`:
 * browsers ask for HTML when they open a page, shippers and curl never do.
 */
export function isElasticsearchClient(headers: IncomingHttpHeaders): boolean {
  if (headers.authorization !== undefined) return true;
  if (headers['x-elastic-client-meta'] !== undefined || headers['x-elastic-product-origin'] !== undefined) return true;
  const accept = headers.accept;
  return accept === undefined || !/\btext\/html\b/i.test(accept);
}

/**
 * A route constraint (find-my-way's), so `GET /` can have two routes: the Elasticsearch one,
 * constrained to clients, and the console's, without constraint, which serves every other
 * request. Neither route needs to know of the other.
 */
export const elasticsearchClientConstraint = {
  name: 'elasticsearchClient',
  storage() {
    const handlers = new Map<string, unknown>();
    return {
      get: (value: string) => (handlers.get(value) ?? null) as never,
      set: (value: string, handler: unknown) => void handlers.set(value, handler),
    };
  },
  deriveConstraint: (request: { headers: IncomingHttpHeaders }): string | undefined => (isElasticsearchClient(request.headers) ? 'yes' : undefined),
  mustMatchWhenDerived: false,
  validate(value: unknown): void {
    // eslint-disable-next-line no-restricted-syntax -- internal invariant: a route's own constraint value
    if (value !== 'yes') throw new Error('elasticsearchClient constraint takes "yes"');
  },
};

/** Route options that limit a route to Elasticsearch clients. */
export const elasticsearchClientRoute = { constraints: { elasticsearchClient: 'yes' } } as const;
