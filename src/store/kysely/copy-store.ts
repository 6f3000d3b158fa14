import { sql, type Kysely } from 'kysely';
import { StoreError, messageOf } from '../../core/index.js';
import type { Store } from '../store.js';
import type { StoreDatabase } from '../store-database.js';
import { KyselyStore } from './kysely-store.js';

/**
 * The tables `copyStore` copies, parents before the tables whose foreign keys point at them (the
 * order the migrations create them). Left out: `leases` (claims of the processes that ran on
 * the old store, meaningless to the new one's) and `query_records` (ad hoc query results, kept
 * minutes). A table a new migration adds must be placed here: `copy-store.int.test.ts` fails
 * until every table of the migrated schema is either copied or named as left out.
 */
export const copiedTables = [
  'tenants',
  'api_keys',
  'indexes',
  'audit_outbox',
  'chat_integrations',
  'event_sinks',
  'detection_rules',
  'detection_rule_sinks',
  'detection_rule_state',
  'detection_debounce',
  'detection_dedup',
  'alerts',
  'alert_deliveries',
  'delivery_attempts',
  'detection_outbox',
  'sync_sources',
  'sync_source_sink_keys',
  'query_usage',
  'lookup_tables',
  'ingest_receipts',
] as const satisfies readonly (keyof StoreDatabase)[];

export const uncopiedTables = ['leases', 'query_records'] as const satisfies readonly (keyof StoreDatabase)[];

export type CopiedTable = (typeof copiedTables)[number];

/** Rows copied per table, in copy order. */
export type CopyReport = { readonly table: CopiedTable; readonly rows: number }[];

// Rows per insert: a statement binds at most 65,535 parameters on PostgreSQL (32,766 on SQLite).
const maxParametersPerInsert = 30_000;

/**
 * Copies every row of `source` into `target` (`vigil migrate-store`: an embedded SQLite store
 * into PostgreSQL for a team that grows). Both are migrated first, so their tables match. The
 * target must hold no row in any copied table; it is written in one transaction (all or
 * nothing), while the source is read in one transaction, a consistent snapshot that on SQLite
 * also holds other writers off until the copy ends. Row counts are compared at the end.
 */
export async function copyStore(source: Store, target: Store, onTable?: (table: CopiedTable, rows: number) => void): Promise<CopyReport> {
  if (!(source instanceof KyselyStore) || !(target instanceof KyselyStore)) throw new StoreError('copying a store: both stores must be of this build');
  await source.migrate();
  await target.migrate();
  const from = source.database;
  const to = target.database;
  await refuseNonEmpty(to);
  try {
    return await from.transaction().execute((reading) =>
      to.transaction().execute(async (writing) => {
        const report: CopyReport = [];
        for (const table of copiedTables) {
          const rows = await copyTable(reading, writing, table);
          const written = await countRows(writing, table);
          if (written !== rows) throw new StoreError(`copying ${table}: read ${rows} rows but the target holds ${written}`);
          report.push({ table, rows });
          onTable?.(table, rows);
        }
        return report;
      }),
    );
  } catch (cause) {
    if (cause instanceof StoreError) throw cause;
    throw new StoreError(`copying the store: ${messageOf(cause)}; nothing was written`, { cause });
  }
}

async function refuseNonEmpty(db: Kysely<StoreDatabase>): Promise<void> {
  const filled: string[] = [];
  for (const table of copiedTables) {
    const rows = await countRows(db, table);
    if (rows > 0) filled.push(`${table} (${rows})`);
  }
  if (filled.length > 0) {
    throw new StoreError(`the target store is not empty: ${filled.join(', ')}; migrate-store copies into an empty store only`);
  }
}

async function countRows(db: Kysely<StoreDatabase>, table: CopiedTable): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Rows read from the source per statement. */
const rowsPerRead = 5_000;
/** The source's rowid under a name no table has. */
const rowIdColumn = '__vigil_copy_rowid';

/**
 * Copies one table's rows from the source into the target in multi-row inserts, reading the
 * source in pages by SQLite's rowid (its statements run in a worker thread, which answers whole
 * results rather than streams); the rows read.
 */
async function copyTable(from: Kysely<StoreDatabase>, to: Kysely<StoreDatabase>, table: CopiedTable): Promise<number> {
  let copied = 0;
  let lastRowId = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const page = (await (from as Kysely<any>)
      .selectFrom(table)
      .selectAll()
      .select(sql<number>`rowid`.as(rowIdColumn))
      .where(sql<number>`rowid`, '>', lastRowId)
      .orderBy(sql`rowid`)
      .limit(rowsPerRead)
      .execute()) as Record<string, unknown>[];
    if (page.length === 0) return copied;
    lastRowId = Number(page.at(-1)?.[rowIdColumn]);
    const records = page.map(({ [rowIdColumn]: _, ...record }) => record);
    const rowsPerInsert = Math.max(1, Math.floor(maxParametersPerInsert / Math.max(1, Object.keys(records[0] ?? {}).length)));
    for (let i = 0; i < records.length; i += rowsPerInsert) {
      await (to as Kysely<any>)
        .insertInto(table)
        .values(records.slice(i, i + rowsPerInsert))
        .execute();
    }
    copied += records.length;
  }
}
