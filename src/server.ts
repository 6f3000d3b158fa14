import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ApiMetrics, buildApi } from './api/index.js';
import type { VigilConfig } from './config/index.js';
import { openRuntime, type Runtime } from './runtime.js';
import { dataDirFreeBytes, probeDataDir, removeFile } from './data-dir.js';
import { closeInOrder } from './close-in-order.js';
import type { ServerInfo } from './data-dir-lock.js';
import { cliActor, defaultTenantName } from './services/index.js';
import { vigilVersion } from './version.js';

export interface RunningServer {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly runtime: Runtime;
  close(): Promise<void>;
}

/**
 * Starts `vigil serve`: opens store and engine, creates the bootstrap tenant and key on first
 * start, runs maintenance and listens. `out` receives the one-time key banner.
 */
export async function startServer(config: VigilConfig, out: NodeJS.WritableStream = process.stdout): Promise<RunningServer> {
  const metrics = new ApiMetrics();
  const runtime = await openRuntime(config, { withEngine: true, detectionMetrics: metrics.detectionMetrics });
  const { services, engine, store, logger } = runtime;
  metrics.observeOutbox(() => store.alerts.pendingCount());
  metrics.observeFreeSpace(() => dataDirFreeBytes(config.dataDir));
  const journal = runtime.ingestJournal;
  if (journal !== null) metrics.observeIngestJournal(() => journal.stats());
  let app: FastifyInstance | null = null;
  try {
    await bootstrap(runtime, out);
    app = await buildApi({
      services,
      logger,
      maxJsonBodyBytes: config.http.maxJsonBodyBytes,
      maxIngestBytes: config.http.maxIngestBytes,
      apiCompat: config.http.apiCompat,
      shippers: {
        maxBodyBytes: config.ingest.shipperMaxBodyBytes,
        maxConcurrent: config.ingest.shipperMaxConcurrent,
        maxConcurrentPerTenant: config.ingest.shipperMaxConcurrentPerTenant,
      },
      version: vigilVersion,
      metrics,
      // Built by `npm run build` (the install's prepare step) beside the compiled server; the
      // same path from src/ (tests run the sources) and from dist/.
      consoleDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
      readiness: [
        { name: 'engine', check: () => engine!.ping() },
        { name: 'store', check: async () => void (await store.tenants.get('default')) },
        // a full disk or a data dir that turned read-only: the service cannot take writes
        { name: 'data_dir', check: () => probeDataDir(config.dataDir, config.dataDirMinFreeBytes) },
      ],
    });
    const address = await app.listen({ host: config.host, port: config.port });
    const url = address.replace('[::1]', 'localhost');
    const info: ServerInfo = { pid: process.pid, url };
    // Written aside then renamed: a reader (the CLI, a test) never sees a half-written file.
    const infoFile = join(config.dataDir, 'server.json');
    writeFileSync(`${infoFile}.tmp`, JSON.stringify(info), { mode: 0o600 });
    renameSync(`${infoFile}.tmp`, infoFile);
    services.maintenance?.start(config.maintenanceIntervalS * 1000);
    // Rules run and alerts go out only once the API answers (readiness, the admin key).
    await services.detections?.start();
    logger.info({ url, data_dir: config.dataDir, engine: config.engine.kind }, 'vigil is listening');
    const openedApp = app;
    let closing: Promise<void> | null = null;
    return {
      url,
      app: openedApp,
      runtime,
      close: () =>
        (closing ??= (async () => {
          // Running queries are cancelled (a blocking query would hold the close for minutes);
          // requests already writing (ingest) finish.
          const searchClosed = services.search?.close();
          await closeInOrder([
            () => searchClosed,
            // Stop the engine first: running windows are cancelled (re-run after a restart), sends get a grace period.
            () => services.detections?.stop(),
            () => closeApp(openedApp),
            () => removeFile(join(config.dataDir, 'server.json')),
            () => runtime.close(),
          ]);
        })()),
    };
  } catch (error) {
    await app?.close().catch(() => {});
    await runtime.close();
    throw error;
  }
}

/**
 * First start: with no live key, create tenant `default` (a UUID id, the name `default`) and an
 * admin key, shown once. A data dir made before tenants had names keeps its tenant with id
 * `default` (docs/compatibility.md). Servers of a shared store starting together take turns (a
 * lease), so only one of them creates the key.
 */
async function bootstrap(runtime: Runtime, out: NodeJS.WritableStream): Promise<void> {
  const { services, store, clock, instanceId } = runtime;
  const tenant = await services.tenants.ensure(defaultTenantName);
  if (await services.keys.anyActive()) return;
  for (;;) {
    const now = clock.nowMs();
    if (await store.leases.claim('bootstrap', instanceId, now, now + 30_000)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (await services.keys.anyActive()) return;
  }
  try {
    if (await services.keys.anyActive()) return;
    await createBootstrapKey(runtime, tenant.id, out);
  } finally {
    await store.leases.release('bootstrap', instanceId);
  }
}

async function createBootstrapKey(runtime: Runtime, tenantId: string, out: NodeJS.WritableStream): Promise<void> {
  const { services, config } = runtime;
  const { secret } = await services.keys.create({ name: 'bootstrap admin', tenants: [tenantId], admin: true }, cliActor);
  const keyFile = join(config.dataDir, 'bootstrap-key');
  writeFileSync(keyFile, `${secret}\n`, { mode: 0o600 });
  out.write(
    [
      '',
      `Created tenant "default" (tenant_id ${tenantId}) and an admin API key. It is shown only this once:`,
      '',
      `    ${secret}`,
      '',
      `It is also saved in ${keyFile} (readable only by you). Use it as: Authorization: Bearer <key>`,
      '',
    ].join('\n'),
  );
}

/**
 * Closes the API: new requests are refused, requests under way finish. Node closes the idle
 * keep-alive connections once, when the close starts; a connection whose request ends later stays
 * open until its client lets it go (72 s of keep-alive), and the close waits for it. So idle
 * connections are closed again until every one is gone.
 */
async function closeApp(app: FastifyInstance): Promise<void> {
  const idle = setInterval(() => app.server.closeIdleConnections(), 100);
  try {
    await app.close();
  } finally {
    clearInterval(idle);
  }
}
