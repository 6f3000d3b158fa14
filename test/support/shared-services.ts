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

/**
 * Schemas of this test file that a closed store gave back, migrated and emptied: a migration
 * costs about half a second on a loaded machine, emptying the tables a few milliseconds.
 */
const emptiedSchemas: string[] = [];

/**
 * An empty schema for a store: one given back by releasePostgresSchema (already migrated, so the
 * store's `migrate()` finds nothing to do) or a new one. The store URL and the schema's name.
 */
export async function reusablePostgresSchema(): Promise<{ url: string; schema: string }> {
  const schema = emptiedSchemas.pop();
  if (schema === undefined) return freshPostgresSchema();
  return { url: inject('postgresUrl'), schema };
}

/**
 * Empties every table of a schema from reusablePostgresSchema but the migrator's own and keeps it
 * for the next store; call once its store is closed. Call dropReleasedPostgresSchemas at the end.
 * DELETE with foreign keys off (replica role, this transaction only) costs a fraction of
 * TRUNCATE, which makes new files for every table and index.
 */
export async function releasePostgresSchema(schema: string): Promise<void> {
  const pool = await adminPool();
  const { rows } = await pool.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = $1 and tablename not like 'kysely\\_%'",
    [schema],
  );
  const deletes = rows.map((r) => `delete from ${schema}."${r.name}";`).join(' ');
  await pool.query(`begin; set local session_replication_role = replica; ${deletes} commit;`);
  emptiedSchemas.push(schema);
}

/** Drops the schemas releasePostgresSchema keeps (the catalog stays small). */
export async function dropReleasedPostgresSchemas(): Promise<void> {
  for (const schema of emptiedSchemas.splice(0)) await dropPostgresSchema(schema);
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
