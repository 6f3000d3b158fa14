import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { StoreError, messageOf, systemClock, type Clock } from '../../core/index.js';
import { KyselyStore } from '../kysely/kysely-store.js';
import type { ConstraintViolation } from '../kysely/store-query-runner.js';
import type { StoreDatabase } from '../store-database.js';
import type { Store } from '../store.js';

export interface PostgresStoreOptions {
  /** Time for writes whose caller gives none. Default: the system clock. */
  readonly clock?: Clock;
  /** Connections the pool opens at most. Default 10. */
  readonly poolSize?: number;
  /** Schema the tables live in (tests give each store its own). Default: the server's search_path. */
  readonly schema?: string;
}

/** Collations whose order is byte order for UTF-8, as SQLite's BINARY is (docs/store.md). */
const byteOrderCollations = new Set(['C', 'POSIX', 'C.UTF-8', 'C.utf8', 'ucs_basic']);

/**
 * Opens the PostgreSQL store at `url` (`postgres://user:password@host:5432/db`). Connects once to
 * check the database: StoreError naming the server (never the password) when it cannot be
 * reached, and when the database does not sort text in byte order, since listings and page
 * tokens order by name and id as the embedded store does. Call `migrate()` before use.
 */
export async function createPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const where = describeUrl(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  });
  // An idle connection the server drops (restart, failover) must not crash the process.
  pool.on('error', () => {});
  try {
    // Every column, because their names changed between versions (daticulocale became datlocale in 17).
    const { rows } = await pool.query<Record<string, unknown>>('select * from pg_database where datname = current_database()');
    const database = rows[0];
    const provider = database?.datlocprovider;
    const collation = (provider === undefined || provider === 'c' ? database?.datcollate : (database?.datlocale ?? database?.daticulocale)) as string | null | undefined;
    if (database !== undefined && (collation === null || collation === undefined || !byteOrderCollations.has(collation))) {
      throw new StoreError(
        `postgresql store ${where}: the database sorts text by ${String(collation ?? provider)}, vigil needs byte order; ` +
          `create it with CREATE DATABASE <name> TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
      );
    }
  } catch (cause) {
    await pool.end().catch(() => {});
    if (cause instanceof StoreError) throw cause;
    throw new StoreError(`cannot open postgresql store ${where}: ${messageOf(cause)}`, { cause });
  }
  const db = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
  return new KyselyStore(db, {
    classifyViolation: classifyPostgresViolation,
    clock: options.clock ?? systemClock,
    selectForUpdate: true,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
  });
}

/** The URL as errors and logs show it: without the password. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(an invalid url)';
  }
}

/** node-postgres reports the SQLSTATE as `error.code`. */
function classifyPostgresViolation(error: unknown): ConstraintViolation | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  switch (code) {
    case '23505':
      return 'unique';
    case '23503':
      return 'foreign_key';
    default:
      return null;
  }
}
