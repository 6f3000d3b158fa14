import { Migrator, type Kysely, type MigrationProvider } from 'kysely';
import { StoreError } from '../../core/index.js';
import { storeMigrations } from './store-migrations.js';

// Static, so nothing is read from disk at run time.
const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve(Object.fromEntries(storeMigrations)),
};

/**
 * Applies every pending migration of storeMigrations; idempotent. Kysely's Migrator holds a lock
 * while it runs (an advisory lock on PostgreSQL; on SQLite the adapter's `begin immediate`
 * transaction), so processes starting together apply each migration once.
 */
export async function migrateStore(db: Kysely<any>, options: { schema?: string } = {}): Promise<void> {
  // A schema is named when the tables live in one that is not the only one on the search path:
  // the Migrator otherwise takes another schema's bookkeeping tables for its own.
  const migrator = new Migrator({ db, provider, ...(options.schema === undefined ? {} : { migrationTableSchema: options.schema }) });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new StoreError(failed === undefined ? 'migrating the store' : `applying migration ${failed}`, { cause: error });
  }
}
