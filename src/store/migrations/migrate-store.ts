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
export async function migrateStore(db: Kysely<any>, options: { schema?: string; migrations?: ReadonlyArray<readonly [name: string, migration: Migration]> } = {}): Promise<void> {
  const migrations = options.migrations ?? storeMigrations;
  if (await allApplied(db, migrations, options.schema)) return;
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

/**
 * Whether the store has applied exactly these migrations: one read, where the Migrator takes a
 * lock and inspects the catalog (about ten statements) before it finds nothing to do. Applied
 * migrations never go away, so the answer cannot turn stale. Any doubt (no table yet, a
 * migration this binary does not know) leaves the decision to the Migrator.
 */
async function allApplied(db: Kysely<any>, migrations: ReadonlyArray<readonly [string, Migration]>, schema: string | undefined): Promise<boolean> {
  try {
    const rows: { name: string }[] = await (schema === undefined ? db : db.withSchema(schema)).selectFrom('kysely_migration').select('name').execute();
    const applied = new Set(rows.map((row) => row.name));
    return applied.size === migrations.length && migrations.every(([name]) => applied.has(name));
  } catch {
    return false;
  }
}
