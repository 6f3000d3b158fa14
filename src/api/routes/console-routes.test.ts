import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleContentSecurityPolicy, registerConsoleRoutes } from './console-routes.js';

/** A console build as `npm run build` leaves it: files with .br and .gz siblings. */
function writeBuild(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const file = join(dir, path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
    writeFileSync(`${file}.gz`, gzipSync(text));
    writeFileSync(`${file}.br`, brotliCompressSync(text));
  }
}

/** The server's wiring (app.ts): console routes, and their page fallback before the JSON 404. */
async function appServing(dir: string): Promise<FastifyInstance> {
  const app = Fastify();
  const page = registerConsoleRoutes(app, dir);
  app.get('/v1/thing', async () => ({ ok: true }));
  app.setNotFoundHandler(async (request, reply) => page(request, reply) ?? reply.status(404).send({ error: 'no route' }));
  await app.ready();
  return app;
}

describe('the console served at /', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-console-build-'));
  const html = '<!doctype html><title>Vigil</title><script type="module" src="/assets/index-Ab12.js"></script>';
  const js = 'console.log("vigil")';
  let app: FastifyInstance;

  beforeAll(async () => {
    writeBuild(dir, { 'index.html': html, 'assets/index-Ab12.js': js, 'favicon.svg': '<svg/>' });
    app = await appServing(dir);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers / with the page, never cached, under a strict Content-Security-Policy', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(html);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toBe(consoleContentSecurityPolicy);
    expect(consoleContentSecurityPolicy).toContain("script-src 'self'");
    expect(consoleContentSecurityPolicy).not.toContain('unsafe-inline');
    expect(consoleContentSecurityPolicy).toContain("connect-src 'self'");
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('caches hashed assets for a year', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-Ab12.js' });
    expect(response.body).toBe(js);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-security-policy']).toBeUndefined();
  });

  it('sends the precompressed brotli or gzip the client accepts, and says it varies by it', async () => {
    const br = await app.inject({ method: 'GET', url: '/assets/index-Ab12.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(js);
    expect(br.headers.vary).toBe('accept-encoding');
    const gzip = await app.inject({ method: 'GET', url: '/assets/index-Ab12.js', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(js);
    const plain = await app.inject({ method: 'GET', url: '/assets/index-Ab12.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
  });

  it('answers 304 to a revalidation of an unchanged file', async () => {
    const first = await app.inject({ method: 'GET', url: '/' });
    const again = await app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers a browser opening a console page (a shared link) with the console', async () => {
    for (const url of ['/search?q=user%20%3D%20%22bob%22&range=24h', '/rules/abc', '/alerts']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(html);
    }
  });

  it('keeps JSON 404s for API paths, missing assets and clients not asking for a page', async () => {
    const cases = [
      { url: '/v1/nothing', accept: 'text/html' },
      { url: '/assets/missing-1234.js', accept: 'text/html' },
      { url: '/search', accept: 'application/json' },
      { url: '/robots.txt', accept: 'text/html' },
    ];
    for (const { url, accept } of cases) {
      const response = await app.inject({ method: 'GET', url, headers: { accept } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: 'no route' });
    }
    expect((await app.inject({ method: 'POST', url: '/search', headers: { accept: 'text/html' } })).statusCode).toBe(404);
  });

  it('says how to build the console when it was not built', async () => {
    const bare = await appServing(join(dir, 'missing'));
    const response = await bare.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatch(/the console is not built in .*missing: run npm run build/);
    await bare.close();
  });
});
