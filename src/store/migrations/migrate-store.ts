import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { StoreError } from '../../core/index.js';
import { storeMigrations } from './store-migrations.js';

// Static, so nothing is read from disk at run time.
function providerOf(migrations: ReadonlyArray<readonly [string, Migration]>): MigrationProvider {
  return { getMigrations: () => Promise.resolve(Object.fromEntries(migrations)) };
}
const storeProvider = providerOf(storeMigrations);

/**
 * Applies every pending migration of storeMigrations (or of `migrations`, for tests); idempotent.
 * Kysely's Migrator holds a lock while it runs (an advisory lock on PostgreSQL; on SQLite the
 * adapter's `begin immediate` transaction), so processes starting together apply each migration
 * once.
 *
 * Migrations are numbered when their work is planned and land in any order, so a store may have
 * applied 0007 before 0006 existed: a pending migration numbered below the last applied one is
 * applied too, rather than refused (Kysely's default). Each migration therefore touches only
 * tables that no migration numbered after it creates.
 */
export async function migrateStore(
  db: Kysely<any>,
  options: { schema?: string; migrations?: ReadonlyArray<readonly [name: string, migration: Migration]> } = {},
): Promise<void> {
  const provider: MigrationProvider = options.migrations === undefined ? storeProvider : providerOf(options.migrations);
  // A schema is named when the tables live in one that is not the only one on the search path:
  // the Migrator otherwise takes another schema's bookkeeping tables for its own.
  const migrator = new Migrator({
    db,
    provider,
    allowUnorderedMigrations: true,
    ...(options.schema === undefined ? {} : { migrationTableSchema: options.schema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new StoreError(failed === undefined ? 'migrating the store' : `applying migration ${failed}`, { cause: error });
  }
}
