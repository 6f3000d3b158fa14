import { sql, type Kysely } from 'kysely';

/**
 * The first schema: tenants, API keys, indexes and the audit outbox.
 *
 * Shipped migrations are never edited; change the schema with a new numbered file. Every
 * migration is written with Kysely's schema builder and portable types only (text, integer,
 * bigint), so the SQLite and PostgreSQL adapters run the same files. Migrations take
 * `Kysely<unknown>` on purpose: they must not depend on today's table types.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_seq', 'bigint', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('tenants', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .execute();
  // A named index rather than a column constraint, so both dialects report the same name.
  await db.schema.createIndex('api_keys_key_hash_unique').on('api_keys').column('key_hash').unique().execute();

  await db.schema
    .createTable('indexes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('retention_days', 'integer')
    .addColumn('timestamp_fields', 'text')
    .addColumn('source_type', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .addCheckConstraint('indexes_kind_check', sql`kind in ('user', 'system')`)
    .execute();
  // Names are unique among live indexes only: a deleted index keeps its row (until its events
  // are purged) while its name is reused at once. Partial indexes exist in SQLite and PostgreSQL.
  // The index also serves the (tenant, name) keyset listing.
  await db.schema.createIndex('indexes_live_name_unique').on('indexes').columns(['tenant_id', 'name']).unique().where(sql.ref('deleted_at'), 'is', null).execute();
  await db.schema.createIndex('indexes_deleted').on('indexes').column('deleted_at').where(sql.ref('deleted_at'), 'is not', null).execute();

  // No foreign key to tenants: some entries (api key changes) are recorded by an admin under a
  // tenant id that need not have a tenants row.
  await db.schema
    .createTable('audit_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('shipped_at', 'bigint')
    .execute();
  await db.schema.createIndex('audit_outbox_unshipped').on('audit_outbox').columns(['at', 'id']).where(sql.ref('shipped_at'), 'is', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_outbox').execute();
  await db.schema.dropTable('indexes').execute();
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('tenants').execute();
}
