import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../core/index.js';
import { dropPostgresSchema, freshPostgresSchema } from '../../../test/support/shared-services.js';
import { createPostgresStore } from '../postgres/index.js';
import { createSqliteStore } from '../sqlite/index.js';
import type { Store } from '../store.js';
import { aCommit, aDelivery, anAlert } from '../testing/detection-engine-fixtures.js';
import { aChatIntegration, anApiKey, anAuditEntry, anIndex, aRule, aSink } from '../testing/store-fixtures.js';
import { aSyncSource } from '../testing/sync-source-contract.js';
import { copiedTables, copyStore, uncopiedTables } from './copy-store.js';
import { KyselyStore } from './kysely-store.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-copy-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store with rows in every table copyStore copies, written through the repositories as the service writes them. */
async function fill(store: Store): Promise<void> {
  const t = 1_700_000_000_000;
  await store.tenants.ensure('acme', t);
  await store.tenants.reserveSequence('acme', 41);
  await store.apiKeys.insert(anApiKey());
  await store.indexes.insert(anIndex('acme', 'cloudtrail'));
  await store.audit.append(anAuditEntry({ tenantId: 'acme' }));
  const chat = aChatIntegration('acme');
  await store.chatIntegrations.insert(chat);
  const webhook = aSink('acme');
  const chatSink = aSink('acme', { type: 'Chat', chatIntegrationId: chat.id });
  await store.sinks.insert(webhook);
  await store.sinks.insert(chatSink);
  const rule = aRule('acme', { eventSinkIds: [webhook.id, chatSink.id], alertTemplate: { info: [{ label: 'user', value: '{{user}}', useForDedup: true }], actions: [] } });
  await store.rules.insert(rule);
  const alert = anAlert('acme', rule.id, { dedupKey: 'alice' });
  const delivery = aDelivery(alert, webhook.id);
  await store.detectionState.commitWindow(
    aCommit('acme', rule.id, alert.windowEndMs, null, {
      identities: ['row-1'],
      sentDedupKeys: ['alice'],
      alerts: [{ alert, deliveries: [delivery, aDelivery(alert, chatSink.id, { sinkType: 'Chat' })] }],
      lastAlertedAtMs: t,
      detections: [{ id: alert.id, tenantId: 'acme', at: t, event: { rule: rule.name, rows: 1 } }],
    }),
  );
  await store.alerts.recordAttempt(
    delivery.id,
    {
      attempt: { id: 'attempt-1', deliveryId: delivery.id, alertId: alert.id, at: t + 1, outcome: 'retryable', httpStatus: 503, latencyMs: 12, error: 'HTTP 503' },
      status: 'pending',
      nextAttemptAt: t + 5000,
    },
    t + 1,
  );
  await store.syncSources.insert(aSyncSource('acme', { sinkKeys: { pager: [webhook.id] } }));
  await store.leases.claim('maintenance', 'old-server', t, t + 60_000);
  await store.queryUsage.add('acme', '2023-11-14', 123_456);
  await store.lookupTables.insert(
    {
      id: 'lookup-1',
      tenantId: 'acme',
      name: 'bad_ips',
      description: 'known bad',
      columns: ['ip', 'source'],
      numRows: 1,
      sizeBytes: 24,
      dataVersion: 'v1',
      createdAt: t,
      updatedAt: t,
    },
    'ip,source\n1.2.3.4,feed\n',
  );
  const index = await store.indexes.getByName('acme', 'cloudtrail');
  await store.ingestReceipts.begin('acme', index!.id, 'file-a:1-1000', t);
  await store.ingestReceipts.addSequenceRange('acme', index!.id, 'file-a:1-1000', { first: 42n, count: 1000 }, t);
  await store.ingestReceipts.finish('acme', index!.id, 'file-a:1-1000', { ingested: 1000, rejected: 0 }, t + 1);
}

function kyselyOf(store: Store): Kysely<any> {
  return (store as KyselyStore).database;
}

/** Every row of a table, each as its sorted column values in text (PostgreSQL reads bigint as text). */
async function rowsOf(store: Store, table: string): Promise<string[]> {
  const rows = (await kyselyOf(store).selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
  return rows
    .map((row) =>
      JSON.stringify(
        Object.entries(row)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => [k, v === null ? null : String(v)]),
      ),
    )
    .sort();
}

describe('copyStore, SQLite into PostgreSQL', () => {
  let source: Store;
  let target: Store;
  let schema: string;

  beforeEach(async () => {
    source = await createSqliteStore(join(mkdtempSync(join(dir, 'src-')), 'vigil.db'));
    const fresh = await freshPostgresSchema();
    schema = fresh.schema;
    target = await createPostgresStore(fresh.url, { schema, poolSize: 2 });
  });

  afterEach(async () => {
    await source.close();
    await target.close();
    await dropPostgresSchema(schema);
  });

  it('copies every row of every table, column for column, and the copy reads back alike through the repositories', async () => {
    await source.migrate();
    await fill(source);
    const seen: string[] = [];
    const report = await copyStore(source, target, (table) => seen.push(table));

    expect(seen).toEqual([...copiedTables]);
    for (const table of copiedTables) {
      const rows = await rowsOf(source, table);
      // The fill reaches every table, so each one's copy is checked.
      expect(rows.length, table).toBeGreaterThan(0);
      expect(await rowsOf(target, table), table).toEqual(rows);
      expect(report.find((r) => r.table === table)?.rows).toBe(rows.length);
    }
    // Leases belonged to the old store's processes.
    expect(await target.leases.holder('maintenance', 1_700_000_000_000)).toBeNull();

    const [rule] = (await source.rules.list('acme', { pageSize: 10 })).items;
    expect(await target.rules.get('acme', rule!.id)).toEqual(await source.rules.get('acme', rule!.id));
    expect(await target.detectionState.listScheduled()).toEqual(await source.detectionState.listScheduled());
    expect(await target.alerts.list('acme', { pageSize: 10 })).toEqual(await source.alerts.list('acme', { pageSize: 10 }));
    expect(await target.tenants.reserveSequence('acme', 1)).toBe(await source.tenants.reserveSequence('acme', 1));
  });

  it('copies into an empty store only, and writes nothing when the target holds data', async () => {
    await source.migrate();
    await fill(source);
    await target.migrate();
    await target.tenants.ensure('globex', 1);
    const error = await copyStore(source, target).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/target store is not empty: tenants \(1\)/);
    expect((await target.tenants.list()).map((t) => t.id)).toEqual(['globex']);
  });

  it('writes nothing when a row cannot be copied (all or nothing)', async () => {
    await source.migrate();
    await fill(source);
    // SQLite keeps any integer; PostgreSQL's integer column refuses this one. Rules are copied
    // after tenants, keys and indexes, which must not stay behind.
    await sql`update detection_rules set time_range_s = 4000000000`.execute(kyselyOf(source));
    const error = await copyStore(source, target).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/nothing was written/);
    for (const table of copiedTables) expect(await rowsOf(target, table), table).toEqual([]);
  });

  it('knows every table the migrations create: each is copied or named as left out', async () => {
    await target.migrate();
    const { rows } = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = ${schema} and tablename not like 'kysely%' order by tablename`.execute(
      kyselyOf(target),
    );
    expect(rows.map((r) => r.name)).toEqual([...copiedTables, ...uncopiedTables].sort());
  });
});
