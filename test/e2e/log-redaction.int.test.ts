/**
 * Credentials never reach the log verbatim (README, "Security"): a key sent as `?api_key=` is
 * refused and was logged whole at info level in the request line; URLs and headers logged by any
 * module go through the same redaction, at the process logger.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/services/index.js';
import { buildApi } from '../../src/api/index.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger, openRuntime, type Runtime } from '../../src/runtime.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(String(chunk));
    done();
  },
});
let dir: string;
let runtime: Runtime;
let app: Awaited<ReturnType<typeof buildApi>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-log-'));
  const config = loadConfig({ dataDir: dir }, {});
  const logger = createLogger(config, sink);
  runtime = await openRuntime(config, { withEngine: false, logger });
  app = await buildApi({ services: runtime.services, logger, maxJsonBodyBytes: 1 << 20, maxIngestBytes: 1 << 20, version: 'test', readiness: [] });
});
afterAll(async () => {
  await app?.close();
  await runtime?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the process log', () => {
  it('shows a request with ?api_key= (refused) with the key redacted and the rest of its line kept', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/index?tenant_id=default&api_key=vgl_SEKRET1234&access_token=TOKEN5678' });
    expect(response.statusCode).toBe(401);
    const log = lines.join('');
    expect(log).not.toContain('SEKRET1234');
    expect(log).not.toContain('TOKEN5678');
    expect(log).toContain('/v1/index?tenant_id=default&api_key=[redacted]&access_token=[redacted]');
  });

  it('redacts the query of an authenticated request too, and never logs its Authorization header', async () => {
    const { secret } = await runtime.services.keys.create({ name: 'log test', tenants: ['acme'] }, cliActor);
    await runtime.services.tenants.ensure('acme');
    const response = await app.inject({ method: 'GET', url: '/v1/index?tenant_id=acme&token=abc123secret', headers: { authorization: `Bearer ${secret}` } });
    expect(response.json()).toEqual({ error: 'querystring: unknown field token' });
    const log = lines.join('');
    expect(log).toContain('/v1/index?tenant_id=acme&token=[redacted]');
    expect(log).not.toContain(secret);
    expect(log).not.toContain('abc123secret');
  });

  it('redacts URLs and credential headers that any module logs', () => {
    runtime.logger.warn(
      {
        url: 'https://ops:hunter2@hooks.example.com/in?sig=abcdef',
        destination: { url: 'https://hooks.example.com/?api_key=nested-secret' },
        headers: { authorization: 'Bearer header-secret', 'x-api-key': 'header-key', 'content-type': 'application/json' },
        request: { headers: { cookie: 'session=cookie-secret' } },
      },
      'a delivery went wrong',
    );
    const line = JSON.parse(lines[lines.length - 1] as string) as Record<string, any>;
    expect(line.url).toBe('https://ops:[redacted]@hooks.example.com/in?sig=[redacted]');
    expect(line.destination.url).toBe('https://hooks.example.com/?api_key=[redacted]');
    expect(line.headers).toEqual({ authorization: '[redacted]', 'x-api-key': '[redacted]', 'content-type': 'application/json' });
    expect(line.request.headers.cookie).toBe('[redacted]');
  });
});
