import { sql, type Kysely } from 'kysely';

/**
 * Detection rules, event sinks, the link between them, and chat integrations.
 *
 * Tenancy is enforced by the schema, not only by the services: sinks and chat integrations carry
 * a unique (tenant_id, id) pair, and the rows that point at them (a rule's sink links, a chat
 * sink's integration) reference that pair, so nothing can point across tenants. The same
 * portable-types rules as 0001 apply; booleans are 0/1 integers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chat_integrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('api_url', 'text')
    .addColumn('sealed_token', 'text', (c) => c.notNull())
    .addColumn('token_hint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('chat_integrations_tenant_id_unique', ['tenant_id', 'id'])
    .execute();

  await db.schema
    .createTable('event_sinks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('sink_type', 'text', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('sealed_secrets', 'text')
    .addColumn('chat_integration_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('event_sinks_tenant_id_unique', ['tenant_id', 'id'])
    // No cascade: an integration cannot be removed while sinks post through it.
    .addForeignKeyConstraint('event_sinks_chat_integration_fk', ['tenant_id', 'chat_integration_id'], 'chat_integrations', ['tenant_id', 'id'])
    .addCheckConstraint('event_sinks_type_check', sql`sink_type in ('Chat', 'Webhook', 'Pager')`)
    .execute();
  // Serves the keyset listing in creation order.
  await db.schema.createIndex('event_sinks_listing').on('event_sinks').columns(['tenant_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('detection_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('query_text', 'text', (c) => c.notNull())
    .addColumn('prepared_query_id', 'text', (c) => c.notNull())
    .addColumn('time_range_s', 'integer', (c) => c.notNull())
    .addColumn('run_frequency_s', 'integer', (c) => c.notNull())
    .addColumn('debounce', 'integer', (c) => c.notNull())
    .addColumn('alert_per_row', 'integer', (c) => c.notNull())
    .addColumn('dedup_window_s', 'bigint')
    .addColumn('enabled_state_override', 'text')
    .addColumn('enabled_state_synced', 'text')
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('alert_template', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('sync_key', 'text')
    .addColumn('detection_rule_sync_id', 'text')
    .addColumn('author_user_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_alerted_at', 'bigint')
    .addCheckConstraint('detection_rules_override_check', sql`enabled_state_override in ('Active', 'Staging', 'Paused')`)
    .addCheckConstraint('detection_rules_synced_check', sql`enabled_state_synced in ('Active', 'Staging', 'Paused')`)
    .addCheckConstraint('detection_rules_severity_check', sql`severity in ('Unknown', 'Informational', 'Low', 'Medium', 'High', 'Critical', 'Fatal', 'Other')`)
    .addCheckConstraint('detection_rules_flags_check', sql`debounce in (0, 1) and alert_per_row in (0, 1)`)
    .execute();
  await db.schema.createIndex('detection_rules_listing').on('detection_rules').columns(['tenant_id', 'created_at', 'id']).execute();
  // Syncers find a rule by its sync key, so a key names at most one rule of a tenant.
  await db.schema
    .createIndex('detection_rules_sync_key_unique')
    .on('detection_rules')
    .columns(['tenant_id', 'sync_key'])
    .unique()
    .where(sql.ref('sync_key'), 'is not', null)
    .execute();

  await db.schema
    .createTable('detection_rule_sinks')
    .addColumn('rule_id', 'text', (c) => c.notNull().references('detection_rules.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('sink_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('detection_rule_sinks_pk', ['rule_id', 'sink_id'])
    .addForeignKeyConstraint('detection_rule_sinks_sink_fk', ['tenant_id', 'sink_id'], 'event_sinks', ['tenant_id', 'id'])
    .execute();
  // Deleting a sink finds the rules that use it through this index.
  await db.schema.createIndex('detection_rule_sinks_by_sink').on('detection_rule_sinks').columns(['tenant_id', 'sink_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('detection_rule_sinks').execute();
  await db.schema.dropTable('detection_rules').execute();
  await db.schema.dropTable('event_sinks').execute();
  await db.schema.dropTable('chat_integrations').execute();
}
