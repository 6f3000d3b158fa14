/**
 * The whole service in this process, for API tests that also need to look inside the engine
 * (`system.processes`) or move the clock: a real chDB engine and SQLite store on a temporary
 * data dir, the real services, and the Fastify app answering through `inject`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { cliActor } from '../../src/services/index.js';
import { buildApi } from '../../src/api/index.js';
import { loadConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/core/index.js';
import type { Engine } from '../../src/engine/index.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';

export interface ApiHarness {
  readonly app: FastifyInstance;
  readonly runtime: Runtime;
  readonly engine: Engine;
  /** A key holding exactly these tenants (created on first use). */
  keyFor(...tenants: string[]): Promise<string>;
  /** Ingests NDJSON lines into a tenant's index (created when missing). */
  ingest(tenant: string, index: string, lines: readonly string[]): Promise<void>;
  /** Sends a JSON request with a key; answers status and parsed body. */
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, key: string, body?: unknown): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function openApiHarness(options: { env?: Record<string, string>; clock?: Clock } = {}): Promise<ApiHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-api-'));
  const config = loadConfig({ dataDir }, { ...options.env });
  const logger = pino({ level: 'silent' });
  const runtime = await openRuntime(config, { withEngine: true, logger, ...(options.clock ? { clock: options.clock } : {}) });
  const app = await buildApi({
    services: runtime.services,
    logger,
    maxJsonBodyBytes: config.http.maxJsonBodyBytes,
    maxIngestBytes: config.http.maxIngestBytes,
    apiCompat: config.http.apiCompat,
    shippers: { maxBodyBytes: config.ingest.shipperMaxBodyBytes, maxConcurrent: config.ingest.shipperMaxConcurrent, maxConcurrentPerTenant: config.ingest.shipperMaxConcurrentPerTenant },
    version: 'test',
    readiness: [],
  });
  const keys = new Map<string, string>();
  return {
    app,
    runtime,
    engine: runtime.engine as Engine,
    async keyFor(...tenants) {
      const id = tenants.join(',');
      const known = keys.get(id);
      if (known) return known;
      for (const tenant of tenants) await runtime.services.tenants.ensure(tenant);
      const created = await runtime.services.keys.create({ name: id, tenants }, cliActor);
      keys.set(id, created.secret);
      return created.secret;
    },
    async ingest(tenant, index, lines) {
      await runtime.services.tenants.ensure(tenant);
      const ingest = runtime.services.ingest;
      if (!ingest) throw new Error('no engine');
      const text = lines.join('\n') + '\n';
      const source = (async function* () {
        yield text;
      })();
      const { summary } = await ingest.ingest({ tenantId: tenant, index, createIndex: true }, source, cliActor);
      if (summary.rejected > 0) throw new Error(`ingest rejected ${summary.rejected} lines: ${JSON.stringify(summary.errors[0])}`);
    },
    async call(method, url, key, body) {
      const response = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      return { status: response.statusCode, body: response.body === '' ? null : response.json(), headers: response.headers };
    },
    async close() {
      await runtime.services.search?.close();
      await app.close();
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
