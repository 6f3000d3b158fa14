import { sql, type Kysely } from 'kysely';

/**
 * What several Vigil servers on one store share (docs/scale-out.md):
 *
 * - `leases`: named, expiring claims on work that must run once at a time across servers (a
 *   rule's windows, maintenance, shipping detections). A claim succeeds when the lease is free,
 *   expired or already the claimant's, in one upsert, so two servers racing get one winner on
 *   both dialects. A dead holder's lease simply expires.
 * - `query_records`: ad hoc queries started through any server, so every server answers
 *   `query_progress` and `cancel_query` for them. The server running a query (`owner`) writes
 *   its progress and result here and polls `cancel_requested_at`; `updated_at` is its heartbeat.
 *   `result` holds the columns and rows as the search module serializes them (JSON text).
 *
 * Same portable-types rules as 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('until_ms', 'bigint', (c) => c.notNull())
    .addColumn('acquired_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('query_records')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('bytes_scanned', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('truncated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('cancel_requested_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addCheckConstraint('query_records_status_check', sql`status in ('running', 'completed', 'failed', 'cancelled')`)
    .execute();
  // The owner asks which of its running queries someone asked to cancel; the sweep finds expired ones.
  await db.schema.createIndex('query_records_by_owner').on('query_records').columns(['owner', 'status']).execute();
  await db.schema.createIndex('query_records_finished').on('query_records').column('finished_at').where(sql.ref('finished_at'), 'is not', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('query_records').execute();
  await db.schema.dropTable('leases').execute();
}
