import { Kysely } from 'kysely';
import { systemClock, type Clock } from '../../core/index.js';
import { KyselyStore } from '../kysely/kysely-store.js';
import type { ConstraintViolation } from '../kysely/store-query-runner.js';
import type { StoreDatabase } from '../store-database.js';
import type { Store } from '../store.js';
import { ImmediateSqliteDialect } from './immediate-sqlite-dialect.js';
import { SqliteWorkerClient } from './sqlite-worker-client.js';

export interface SqliteStoreOptions {
  /** Time for writes whose caller gives none. Default: the system clock. */
  readonly clock?: Clock;
  /** How long a write waits for another process's write lock before failing. Default 5000. */
  readonly busyTimeoutMs?: number;
  /** How long a statement may take before it fails with `unavailable`. Default busy timeout + 10 s. */
  readonly statementTimeoutMs?: number;
}

/**
 * Opens the SQLite store at `path` (a file, created when missing, or `:memory:`). The parent
 * directory must exist. Call `migrate()` before use. StoreError when the file cannot be opened.
 */
export async function createSqliteStore(path: string, options: SqliteStoreOptions = {}): Promise<Store> {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  // A statement may wait busy_timeout for another process's lock; past that and a margin, its disk is stuck.
  const client = await SqliteWorkerClient.open(path, { busyTimeoutMs, statementTimeoutMs: options.statementTimeoutMs ?? busyTimeoutMs + 10_000 });
  const db = new Kysely<StoreDatabase>({ dialect: new ImmediateSqliteDialect(client) });
  return new KyselyStore(db, { classifyViolation: classifySqliteViolation, clock: options.clock ?? systemClock });
}

/** better-sqlite3 reports SQLite's extended result codes as `error.code`. */
function classifySqliteViolation(error: unknown): ConstraintViolation | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  switch (code) {
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
      return 'unique';
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return 'foreign_key';
    default:
      return null;
  }
}
