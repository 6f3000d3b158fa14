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
});
