import { Kysely, Migrator, NO_MIGRATIONS, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ImmediateSqliteDialect } from '../sqlite/immediate-sqlite-dialect.js';
import { SqliteWorkerClient } from '../sqlite/sqlite-worker-client.js';
import { migrateStore } from './migrate-store.js';
import { storeMigrations } from './store-migrations.js';

const names = storeMigrations.map(([name]) => name);
const allTables = [
  'alert_deliveries',
  'alerts',
  'api_keys',
  'audit_outbox',
  'chat_integrations',
  'delivery_attempts',
  'detection_debounce',
  'detection_dedup',
  'detection_outbox',
  'detection_rule_sinks',
  'detection_rule_state',
  'detection_rules',
  'event_sinks',
  'indexes',
  'ingest_receipts',
  'leases',
  'lookup_tables',
  'query_records',
  'query_usage',
  'sync_source_sink_keys',
  'sync_sources',
  'tenants',
];
let db: Kysely<unknown> | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

async function tables(of: Kysely<unknown>): Promise<string[]> {
  const result = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'kysely%' order by name`.execute(of);
  return result.rows.map((r) => r.name);
}

describe('storeMigrations', () => {
  it('lists unique names that sort in list order, as Kysely applies them', () => {
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(names);
    for (const name of names) expect(name).toMatch(/^\d{4}-[a-z0-9-]+$/);
  });

  it('apply up, roll back down to nothing, and apply again', async () => {
    const client = await SqliteWorkerClient.open(':memory:', { busyTimeoutMs: 5000, statementTimeoutMs: 15_000 });
    db = new Kysely<unknown>({ dialect: new ImmediateSqliteDialect(client) });
    await migrateStore(db);
    expect(await tables(db)).toEqual(allTables);
    const provider = { getMigrations: () => Promise.resolve(Object.fromEntries(storeMigrations)) };
    const { error } = await new Migrator({ db, provider }).migrateTo(NO_MIGRATIONS);
    expect(error).toBeUndefined();
    expect(await tables(db)).toEqual([]);
    await migrateStore(db);
    expect(await tables(db)).toEqual(allTables);
  });

  it('apply a migration that landed after a higher-numbered one was applied (branches land in any order)', async () => {
    const client = await SqliteWorkerClient.open(':memory:', { busyTimeoutMs: 5000, statementTimeoutMs: 15_000 });
    db = new Kysely<unknown>({ dialect: new ImmediateSqliteDialect(client) });
    await migrateStore(db);
    const last = names.at(-1) ?? '';
    // A migration numbered just below the last one, as when its branch lands after the last one's.
    const late = `${String(Number(last.slice(0, 4)) - 1).padStart(4, '0')}-landed-late`;
    expect(names).not.toContain(late);
    const lateMigration = { up: (of: Kysely<any>) => of.schema.createTable('landed_late').addColumn('id', 'text').execute() };
    const withLate = [...storeMigrations.slice(0, -1), [late, lateMigration] as const, ...storeMigrations.slice(-1)];
    await migrateStore(db, { migrations: withLate });
    expect(await tables(db)).toEqual([...allTables, 'landed_late'].sort());
    // Applied once: a second start finds nothing pending.
    await migrateStore(db, { migrations: withLate });
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(applied.rows.map((r) => r.name)).toEqual([...names.slice(0, -1), late, ...names.slice(-1)]);
  });
});
