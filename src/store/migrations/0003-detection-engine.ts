import { sql, type Kysely } from 'kysely';

/**
 * The detection engine's state: each rule's cursor and run record, its debounce and dedup memory,
 * the alerts it produced, their delivery outbox and every delivery attempt (detections.md E2, E5,
 * E6, E13). The same portable-types rules as 0001 apply.
 *
 * A rule's state and memory go with the rule (ON DELETE CASCADE); alerts outlive it, so the
 * operator can still read what a deleted rule sent. Deliveries name their sink without a foreign
 * key for the same reason: a deleted sink's pending deliveries fail with a clear error instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('detection_rule_state')
    .addColumn('rule_id', 'text', (c) => c.primaryKey().references('detection_rules.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    // The end of the last evaluated window (epoch ms); null until the first run.
    .addColumn('cursor_ms', 'bigint')
    .addColumn('last_run_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'bigint')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    // The most recent run of windows skipped because they were older than the catch-up horizon.
    .addColumn('gap_start_ms', 'bigint')
    .addColumn('gap_end_ms', 'bigint')
    .addColumn('skipped_windows', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  // Identities of rows a rule alerted, with the end of the window that alerted them last.
  await db.schema
    .createTable('detection_debounce')
    .addColumn('rule_id', 'text', (c) => c.notNull().references('detection_rules.id').onDelete('cascade'))
    .addColumn('identity', 'text', (c) => c.notNull())
    .addColumn('window_end_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('detection_debounce_pk', ['rule_id', 'identity'])
    .execute();
  await db.schema.createIndex('detection_debounce_by_end').on('detection_debounce').columns(['rule_id', 'window_end_ms']).execute();

  // Dedup keys a rule sent, with the end of the window whose alert sent them last.
  await db.schema
    .createTable('detection_dedup')
    .addColumn('rule_id', 'text', (c) => c.notNull().references('detection_rules.id').onDelete('cascade'))
    .addColumn('dedup_key', 'text', (c) => c.notNull())
    .addColumn('sent_window_end_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('detection_dedup_pk', ['rule_id', 'dedup_key'])
    .execute();

  await db.schema
    .createTable('alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('rule_name', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('window_start_ms', 'bigint', (c) => c.notNull())
    .addColumn('window_end_ms', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('dedup_key', 'text')
    // The alert object as sinks receive it (JSON), so every retry sends the same alert.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('alerts_status_check', sql`status in ('pending', 'delivered', 'failed', 'suppressed', 'no_sinks')`)
    .execute();
  await db.schema.createIndex('alerts_listing').on('alerts').columns(['tenant_id', 'created_at', 'id']).execute();

  // The outbox: one row per alert and sink. `lease_until` marks a row a worker is sending.
  await db.schema
    .createTable('alert_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('alert_id', 'text', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('sink_id', 'text', (c) => c.notNull())
    .addColumn('sink_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    // Start of the give-up horizon: when the delivery was queued, or re-queued by a resend.
    .addColumn('queued_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('last_http_status', 'integer')
    .addColumn('delivered_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('alert_deliveries_status_check', sql`status in ('pending', 'delivered', 'failed')`)
    .execute();
  await db.schema.createIndex('alert_deliveries_due').on('alert_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('alert_deliveries_by_alert').on('alert_deliveries').column('alert_id').execute();

  await db.schema
    .createTable('delivery_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('alert_deliveries.id').onDelete('cascade'))
    .addColumn('alert_id', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addCheckConstraint('delivery_attempts_outcome_check', sql`outcome in ('delivered', 'retryable', 'permanent')`)
    .execute();
  await db.schema.createIndex('delivery_attempts_by_alert').on('delivery_attempts').columns(['alert_id', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('delivery_attempts').execute();
  await db.schema.dropTable('alert_deliveries').execute();
  await db.schema.dropTable('alerts').execute();
  await db.schema.dropTable('detection_dedup').execute();
  await db.schema.dropTable('detection_debounce').execute();
  await db.schema.dropTable('detection_rule_state').execute();
}
