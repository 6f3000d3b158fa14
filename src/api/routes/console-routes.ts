import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { chooseEncoding, loadConsoleAssets, type ConsoleAsset } from '../console-assets.js';

/**
 * The console may run only its own files and talk only to this server: no inline script or
 * style (CodeMirror's styles go through constructed style sheets, which CSP does not govern),
 * no other origin, no framing.
 */
export const consoleContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Answers a page request the router did not match: the console's page, or null when it is not one. */
export type ConsolePageFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | null;

/**
 * Serves the web console built into `dir`: `/` and every console page path (a browser asking for
 * HTML) answer index.html, never cached so a new build is picked up at once; `/assets/*` carry a
 * content hash in their names and are cached for a year. Precompressed brotli or gzip is sent to
 * clients that accept it. Returns the page fallback for the not-found handler, or, when the
 * console was not built, registers `/` answering 404 with how to build it.
 */
export function registerConsoleRoutes(app: FastifyInstance, dir: string): ConsolePageFallback {
  const assets = loadConsoleAssets(dir);
  if (!assets) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.status(404).send({ error: `the console is not built in ${dir}: run npm run build` }));
    return () => null;
  }
  const indexPage = assets.get('/index.html')!;
  for (const [path, asset] of assets) {
    app.get(path, { schema: { hide: true } }, async (request, reply) => sendAsset(request, reply, asset));
  }
  app.get('/', { schema: { hide: true } }, async (request, reply) => sendAsset(request, reply, indexPage));
  return (request, reply) => (isConsolePageRequest(request) ? sendAsset(request, reply, indexPage) : null);
}

/** A browser navigating to a console path (`/search?q=…`, `/rules/ID`): a GET for HTML outside the API's paths. */
function isConsolePageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '';
  if (/^\/(v1|assets|schema)(\/|$)/.test(path) || path.includes('.')) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: ConsoleAsset): FastifyReply {
  void reply
    .header('content-type', asset.contentType)
    .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    .header('etag', asset.etag)
    .header('vary', 'accept-encoding')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
  if (asset.contentType.startsWith('text/html')) {
    void reply.header('content-security-policy', consoleContentSecurityPolicy).header('x-frame-options', 'DENY');
  }
  if (request.headers['if-none-match'] === asset.etag) return reply.status(304).send();
  const encoding = chooseEncoding(asset, request.headers['accept-encoding']);
  if (encoding) void reply.header('content-encoding', encoding);
  return reply.status(200).send(encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.body);
}
