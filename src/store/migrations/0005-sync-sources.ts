import { sql, type Kysely } from 'kysely';

/**
 * Sync sources: the repositories a tenant pushes rule files from (detections.md 3.5), and the map
 * from a rule file's `event_sink_keys` to the tenant's sinks (3.4).
 *
 * A source is named by (tenant, push_key, branch). `revision` counts applied syncs: a sync is
 * planned against one revision and applied only if it is still current, in one transaction that
 * bumps it, so two uploads racing leave the rules of exactly one archive.
 *
 * The sink-key rows reference `event_sinks (tenant_id, id)` and `sync_sources (tenant_id, id)`,
 * so a key can only name sinks of the source's own tenant. Rules point at their source through
 * `detection_rules.detection_rule_sync_id` without a foreign key: that column predates this table
 * and rules may carry ids of sources kept elsewhere; the store deletes a source's rules with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sync_sources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('push_key', 'text', (c) => c.notNull())
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('revision', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_commit_sha', 'text')
    .addColumn('last_commit_message', 'text')
    .addColumn('last_synced_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('sync_sources_tenant_id_unique', ['tenant_id', 'id'])
    .addUniqueConstraint('sync_sources_push_key_branch_unique', ['tenant_id', 'push_key', 'branch'])
    .execute();
  await db.schema.createIndex('sync_sources_listing').on('sync_sources').columns(['tenant_id', 'created_at', 'id']).execute();
  // An upload names a push key and a branch but no tenant: find its source(s) without a scan.
  await db.schema.createIndex('sync_sources_by_push_key').on('sync_sources').columns(['push_key', 'branch']).execute();

  await db.schema
    .createTable('sync_source_sink_keys')
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('sink_key', 'text', (c) => c.notNull())
    .addColumn('sink_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_source_sink_keys_pk', ['source_id', 'sink_key', 'sink_id'])
    .addForeignKeyConstraint('sync_source_sink_keys_source_fk', ['tenant_id', 'source_id'], 'sync_sources', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('sync_source_sink_keys_sink_fk', ['tenant_id', 'sink_id'], 'event_sinks', ['tenant_id', 'id'])
    .addCheckConstraint('sync_source_sink_keys_key_check', sql`length(sink_key) > 0`)
    .execute();
  // Deleting a sink removes it from every map through this index.
  await db.schema.createIndex('sync_source_sink_keys_by_sink').on('sync_source_sink_keys').columns(['tenant_id', 'sink_id']).execute();

  // A sync reads the rules of one source.
  await db.schema.createIndex('detection_rules_by_sync_source').on('detection_rules').columns(['tenant_id', 'detection_rule_sync_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('detection_rules_by_sync_source').execute();
  await db.schema.dropTable('sync_source_sink_keys').execute();
  await db.schema.dropTable('sync_sources').execute();
}
