import { sql, type Kysely } from 'kysely';

/**
 * What the published clients need beyond the interface (docs/compatibility.md):
 *
 * - `tenants.name`: a tenant is addressed by id or by name. The bootstrap tenant is now created
 *   with a UUID id (the published SDK parses every tenant id as a UUID) and keeps the name
 *   `default`; every tenant made before this step is named after its id, so `default` still
 *   finds the tenant an older data dir created with id `default`.
 * - `query_usage`: bytes scanned by a tenant's ad hoc queries per UTC day, for
 *   `GET /v1/info/query_capacity`. Days are `YYYY-MM-DD` text, so both dialects compare them.
 * - an index of rules by sync key alone, for the lookup the published CLI's sync makes.
 * - `lookup_tables`: uploaded CSV tables queries enrich events with (`| lookup`). The store keeps
 *   the file as uploaded and its column names; the rows queries read live in the events engine
 *   under `data_version`, which changes with each replacement of the data.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tenants').addColumn('name', 'text').execute();
  await sql`update tenants set name = id where name is null`.execute(db);
  await db.schema.createIndex('tenants_name_unique').on('tenants').column('name').unique().execute();

  await db.schema
    .createTable('query_usage')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('bytes_scanned', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('query_usage_pk', ['tenant_id', 'day'])
    .execute();

  await db.schema
    .createTable('lookup_tables')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('num_rows', 'integer', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('data_version', 'text', (c) => c.notNull())
    .addColumn('csv', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('lookup_tables_name_unique', ['tenant_id', 'name'])
    .execute();
  await db.schema.createIndex('lookup_tables_listing').on('lookup_tables').columns(['tenant_id', 'created_at', 'id']).execute();

  // `GET /v1/detection_rule_by_sync_key/{key}` names no tenant: find the key across tenants.
  await db.schema.createIndex('detection_rules_by_sync_key').on('detection_rules').column('sync_key').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('detection_rules_by_sync_key').execute();
  await db.schema.dropTable('lookup_tables').execute();
  await db.schema.dropTable('query_usage').execute();
  await db.schema.dropIndex('tenants_name_unique').execute();
  await db.schema.alterTable('tenants').dropColumn('name').execute();
}
