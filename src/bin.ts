import { existsSync } from 'node:fs';
import { embeddedStorePath, loadConfig } from './config/index.js';
import { StoreError } from './core/index.js';
import { copyStore } from './store/index.js';
import { createPostgresStore, describeUrl } from './store/postgres/index.js';
import { createSqliteStore } from './store/sqlite/index.js';
import { discardOutputOnceClosed, runCli, type CliContext } from './cli/index.js';
import { DataDirBusyError, readServerInfo } from './data-dir-lock.js';
import { openRuntime, openScratchEngine, createLogger } from './runtime.js';
import { startServer } from './server.js';
import { shutDownWithin } from './bounded-shutdown.js';
import { sqliteThreadHoldsExit } from './store/sqlite/index.js';
import { vigilVersion } from './version.js';
import { createOwnerOnlyFiles } from './data-dir.js';

// Before anything is created: the data dir's files are its owner's alone (docs/operations.md).
createOwnerOnlyFiles();

/** The `vigil` command's composition root: wires the CLI to the real store, engine and server. */
const context: CliContext = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  interactive: Boolean(process.stderr.isTTY),
  loadConfig: (overrides) => loadConfig(overrides),
  async openServices(config, withEngine, options) {
    // CLI commands log only warnings: their output is for people.
    const runtime = await openRuntime(config, {
      withEngine,
      createDataDir: options?.createDataDir === true,
      logger: createLogger({ ...config, logLevel: 'warn' }),
    });
    return { services: runtime.services, close: () => runtime.close() };
  },
  async serve(config) {
    const server = await startServer(config);
    await new Promise<void>((resolve) => {
      const stop = (signal: string): void => {
        server.runtime.logger.info({ signal }, 'shutting down');
        const close = () => server.close().catch((error: unknown) => server.runtime.logger.error({ err: error }, 'shutdown failed'));
        // Bounded whatever the disk or the engine does: past the limit the process ends by force.
        void shutDownWithin(close, config.shutdownTimeoutS * 1000, sqliteThreadHoldsExit).then(resolve);
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
  },
  runningServer: (dataDir) => readServerInfo(dataDir),
  isDataDirBusy: (error) => error instanceof DataDirBusyError,
  nowMs: () => Date.now(),
  async copyEmbeddedStore(config, url, onTable) {
    const path = embeddedStorePath(config.dataDir);
    if (!existsSync(path)) throw new StoreError(`no embedded store at ${path}: nothing to copy (give the data dir with --data-dir)`);
    const source = await createSqliteStore(path);
    try {
      const target = await createPostgresStore(url);
      try {
        return { tables: await copyStore(source, target, onTable), target: describeUrl(url) };
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  },
  openScratchEngine,
};

discardOutputOnceClosed(process.stdout);
discardOutputOnceClosed(process.stderr);
process.exitCode = await runCli(process.argv.slice(2), context, vigilVersion);
