import type { Kysely } from 'kysely';

/**
 * Detection events waiting to be written to their tenant's `_detections` index. A window's
 * detections are stored here in the same transaction as its cursor and alerts, and shipped to the
 * events engine in batches afterwards, like the audit outbox: a crash can no longer write a
 * window's detections twice (or lose them), and writing them no longer delays the alerts. A row
 * is deleted once the engine holds its event.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('detection_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    // The `_detections` event (JSON).
    .addColumn('event', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('detection_outbox_order').on('detection_outbox').columns(['at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('detection_outbox').execute();
}
