import type { Kysely } from 'kysely';

/**
 * Ingest receipts: ingestions sent with an ingest id (`vigil ingest` sends one per piece of a
 * file), so a repeat is answered without writing twice (docs/ingest.md, "Ingest ids").
 * `sequence_ranges` is a JSON array of `[first, count]` (first as a decimal string: it may pass
 * 2^53); `summary` the JSON answer once done. No foreign key to indexes: receipts go with the
 * index's purge, which runs after the index row is marked deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ingest_receipts')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('index_id', 'text', (c) => c.notNull())
    .addColumn('ingest_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('sequence_ranges', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ingest_receipts_pk', ['tenant_id', 'index_id', 'ingest_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ingest_receipts').execute();
}
