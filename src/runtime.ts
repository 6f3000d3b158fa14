import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino, type Logger as PinoLogger } from 'pino';
import { readSecretsKey, type DetectionsConfig, type VigilConfig } from './config/index.js';
import { SecretBox, newId, redactLogFields, redactUrl, redactedText, systemClock, type Clock } from './core/index.js';
import { createServices, defaultDetectionEngineSettings, type DetectionEngineSettings, type Services } from './services/index.js';
import type { DetectionMetrics } from './detections/index.js';
import { vigilVersion } from './version.js';
import type { Engine } from './engine/index.js';
import { ChdbEngine } from './engine/chdb/index.js';
import { ClickHouseHttpEngine } from './engine/clickhouse/index.js';
import { IngestJournal, JournaledEngine } from './engine/journal/index.js';
import type { Store } from './store/index.js';
import { createPostgresStore } from './store/postgres/index.js';
import { createSqliteStore } from './store/sqlite/index.js';
import { DataDirLock } from './data-dir-lock.js';
import { checkDataDirWritable, prepareDataDir, protectDataDir } from './data-dir.js';
import { closeInOrder } from './close-in-order.js';

/** Everything one process opened: the store, maybe the engine, and the services over them. */
export interface Runtime {
  readonly config: VigilConfig;
  readonly logger: PinoLogger;
  readonly clock: Clock;
  readonly store: Store;
  readonly engine: Engine | null;
  /** The embedded engine's ingest journal, when it runs behind one (its figures go to /metrics). */
  readonly ingestJournal: IngestJournal | null;
  readonly services: Services;
  /** This process's name among the servers of a shared store (lease holder, query owner). */
  readonly instanceId: string;
  close(): Promise<void>;
}

/**
 * The process logger: JSON lines, secrets redacted as a second line of defence: named secret
 * fields, and credentials inside any logged URL (the request line's `?api_key=` too) or headers.
 */
export function createLogger(config: VigilConfig, destination: NodeJS.WritableStream = process.stderr): PinoLogger {
  return pino(
    {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', '*.secret', '*.api_key', '*.integration_key', '*.password'],
        censor: redactedText,
      },
      formatters: { log: redactLogFields },
      // Fastify's request line, with the query's credentials redacted (formatters see the raw request).
      serializers: {
        req: (request: { method?: string; url?: string; host?: string; ip?: string }) => ({
          method: request.method,
          url: redactUrl(request.url ?? ''),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
    },
    destination,
  );
}

/**
 * Opens the metadata store and, with `withEngine`, the events engine (taking the data dir lock:
 * DataDirBusyError when a server holds it). The only place that names concrete adapters besides bin.ts.
 */
export async function openRuntime(
  config: VigilConfig,
  // createDataDir: false for CLI commands that only read (a missing data dir is then an error).
  options: { withEngine: boolean; createDataDir?: boolean; logger?: PinoLogger; clock?: Clock; detectionMetrics?: DetectionMetrics },
): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config);
  const clock = options.clock ?? systemClock;
  prepareDataDir(config.dataDir, { create: options.createDataDir ?? true });
  protectDataDir(config.dataDir);
  checkDataDirWritable(config.dataDir);
  const store = await openStore(config, clock);
  // Embedded (chDB and SQLite): the data dir lock makes this process the only server of its
  // store. Otherwise other servers may share it (docs/scale-out.md).
  const exclusive = config.engine.kind === 'chdb' && config.store.kind === 'sqlite';
  const instanceId = `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  let lock: DataDirLock | null = null;
  let engine: Engine | null = null;
  let ingestJournal: IngestJournal | null = null;
  try {
    await store.migrate();
    if (options.withEngine) {
      let opened: Engine;
      if (config.engine.kind === 'chdb') {
        lock = DataDirLock.acquire(config.dataDir);
        const chdb = new ChdbEngine({ path: config.engine.path, poolSize: config.engine.poolSize }, logger.child({ component: 'engine' }));
        if (config.ingest.journal) {
          ingestJournal = new IngestJournal(join(config.dataDir, 'ingest-journal'), (batches) => chdb.insertEventGroup(batches), logger.child({ component: 'ingest-journal' }));
          opened = new JournaledEngine(chdb, ingestJournal);
        } else opened = chdb;
      } else {
        opened = new ClickHouseHttpEngine(
          { url: config.engine.url, ...(config.engine.cluster === null ? {} : { schema: { cluster: config.engine.cluster } }) },
          logger.child({ component: 'engine' }),
        );
      }
      engine = opened;
      await opened.init();
    }
  } catch (error) {
    await engine?.close().catch(() => {});
    lock?.release();
    await store.close();
    throw error;
  }
  const services = createServices({
    store,
    engine,
    clock,
    logger,
    ingest: config.ingest,
    search: config.query,
    // Read (or created) on first use: only processes that seal or open a secret touch the key.
    secrets: new SecretBox(() => readSecretsKey(config.security.secretsKey)),
    allowPrivateDestinations: config.security.allowPrivateDestinations,
    detections: { ...detectionEngineSettings(config.detections, exclusive), leaseHolder: instanceId },
    instanceId,
    sharedStore: !exclusive,
    ...(options.detectionMetrics ? { detectionMetrics: options.detectionMetrics } : {}),
  });
  return {
    config,
    logger,
    clock,
    store,
    engine,
    ingestJournal,
    services,
    instanceId,
    close: () =>
      closeInOrder([
        () => services.search?.close(),
        () => services.detections?.stop(),
        () => services.maintenance?.stop(),
        () => engine?.close(),
        () => lock?.release(),
        () => store.close(),
      ]),
  };
}

/** The configured metadata store: SQLite in the data dir, or a shared PostgreSQL. */
function openStore(config: VigilConfig, clock: Clock): Promise<Store> {
  return config.store.kind === 'sqlite' ? createSqliteStore(config.store.path, { clock }) : createPostgresStore(config.store.url, { clock });
}

/** The detection engine's settings from the configuration (seconds become milliseconds). */
export function detectionEngineSettings(config: DetectionsConfig, exclusiveWorker: boolean): DetectionEngineSettings {
  const defaults = defaultDetectionEngineSettings;
  return {
    scheduler: {
      ...defaults.scheduler,
      settleDelayMs: config.settleDelayS * 1000,
      catchUpHorizonMs: config.catchUpHorizonS * 1000,
      maxConcurrentRuns: config.maxConcurrentRuns,
      ruleTimeoutMs: config.ruleTimeoutS * 1000,
      maxRows: config.maxRows,
      // A window may run for its time-out; the rest covers reading the rule and the commit.
      leaseMs: config.ruleTimeoutS * 1000 + 5000,
    },
    windowBatchSize: config.windowBatchSize,
    delivery: {
      ...defaults.delivery,
      concurrency: config.deliveryConcurrency,
      perSinkConcurrency: config.deliveryPerSinkConcurrency,
      // A lease outlasts a send, so a live worker's delivery is never taken over.
      leaseMs: Math.max(defaults.delivery.leaseMs, config.deliveryTimeoutS * 2000 + 10_000),
      retry: { ...defaults.delivery.retry, giveUpAfterMs: config.deliveryGiveUpS * 1000 },
    },
    sendTimeoutMs: config.deliveryTimeoutS * 1000,
    chatApiUrl: config.chatApiUrl,
    pagerApiUrl: config.pagerApiUrl,
    userAgent: `vigil/${vigilVersion}`,
    exclusiveWorker,
  };
}

/**
 * A temporary embedded engine for offline rule tests (`vigil rules test`): a fresh data directory
 * under the system's temp directory, removed on close. Not for a process that already holds an
 * engine: chDB opens one data directory per process.
 */
export async function openScratchEngine(): Promise<{ engine: Engine; close(): Promise<void> }> {
  const path = mkdtempSync(join(tmpdir(), 'vigil-rule-tests-'));
  const engine = new ChdbEngine({ path, poolSize: 2 });
  try {
    await engine.init();
  } catch (error) {
    await engine.close().catch(() => {});
    rmSync(path, { recursive: true, force: true });
    throw error;
  }
  return {
    engine,
    async close() {
      await engine.close();
      rmSync(path, { recursive: true, force: true });
    },
  };
}
