/**
 * The run's shared PostgreSQL and ClickHouse HTTP endpoint (started by global-services.ts), for
 * tests: wait until they answer, and take a fresh schema or database of one's own.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';

async function ready(name: 'postgres' | 'clickhouse'): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const status = JSON.parse(readFileSync(inject('servicesStatusFile'), 'utf8')) as Record<string, string>;
    const state = status[name];
    if (state === 'ready') return;
    if (state !== undefined) throw new Error(`the test ${name} ${state}`);
    if (Date.now() > deadline) throw new Error(`the test ${name} did not start within 180 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let admin: pg.Pool | null = null;

/** A pool on the run's PostgreSQL as its admin, once it answers. */
async function adminPool(): Promise<pg.Pool> {
  await ready('postgres');
  admin ??= new pg.Pool({ connectionString: inject('postgresUrl'), max: 2 });
  return admin;
}

function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/** The URL of `database` on the run's PostgreSQL. */
export function postgresUrlOf(database: string): string {
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${database}`;
  return url.toString();
}

/** A new empty schema in the run's `postgres` database: the store URL and the schema's name. */
export async function freshPostgresSchema(): Promise<{ url: string; schema: string }> {
  const schema = uniqueName('vigil');
  await (await adminPool()).query(`create schema ${schema}`);
  return { url: inject('postgresUrl'), schema };
}

/** Drops a schema made by freshPostgresSchema (keeping the catalog small keeps migrations fast). */
export async function dropPostgresSchema(schema: string): Promise<void> {
  await (await adminPool()).query(`drop schema if exists ${schema} cascade`);
}

/** A new empty database that sorts text in byte order, as Vigil needs: its URL. */
export async function freshPostgresDatabase(options: { collate?: string } = {}): Promise<string> {
  const database = uniqueName('vigil');
  const collate = options.collate ?? 'C';
  await (await adminPool()).query(`create database ${database} template template0 encoding 'UTF8' lc_collate '${collate}' lc_ctype '${collate}'`);
  return postgresUrlOf(database);
}

/** The run's ClickHouse HTTP endpoint (a real server with CLICKHOUSE_URL), once it answers. */
export async function sharedClickHouseUrl(): Promise<string> {
  await ready('clickhouse');
  return inject('clickhouseUrl');
}
