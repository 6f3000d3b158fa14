import type { Kysely, Selectable, Transaction } from 'kysely';
import { ConflictError, NotFoundError, ValidationError } from '../../core/index.js';
import type { DetectionRuleRecord, Page, SyncSourceRecord } from '../records.js';
import type { PageOptions } from '../repository-options.js';
import type { StoreDatabase, SyncSourcesTable } from '../store-database.js';
import type { SyncCommit, SyncSourceRepository } from '../sync-source-store.js';
import { chunks } from './chunks.js';
import { millisOf, nullableMillisOf } from './column-codecs.js';
import { afterPosition, creationOrderStart, pageOf } from './creation-order-page.js';
import { ruleWithSinks } from './kysely-detection-rule-repository.js';
import { applySyncCommit } from './sync-commit-writer.js';
import type { StoreQueryRunner, ViolationErrors } from './store-query-runner.js';

type Db = Kysely<StoreDatabase> | Transaction<StoreDatabase>;
type SinkKeys = SyncSourceRecord['sinkKeys'];

/** Sync sources over Kysely, for every dialect. A source, its map and its rules change together. */
export class KyselySyncSourceRepository implements SyncSourceRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  insert(source: SyncSourceRecord): Promise<void> {
    return this.runner.run(
      'inserting sync source',
      () =>
        this.db.transaction().execute(async (trx) => {
          const tenant = await trx.selectFrom('tenants').select('id').where('id', '=', source.tenantId).executeTakeFirst();
          if (tenant === undefined) throw new NotFoundError(`tenant "${source.tenantId}" not found`);
          await trx
            .insertInto('sync_sources')
            .values({
              id: source.id,
              tenant_id: source.tenantId,
              push_key: source.pushKey,
              branch: source.branch,
              revision: source.revision,
              last_commit_sha: source.lastCommitSha,
              last_commit_message: source.lastCommitMessage,
              last_synced_at: source.lastSyncedAt,
              created_at: source.createdAt,
              updated_at: source.updatedAt,
            })
            .execute();
          await writeSinkKeys(trx, source.tenantId, source.id, source.sinkKeys);
        }),
      violations(source),
    );
  }

  get(tenantId: string, id: string): Promise<SyncSourceRecord | null> {
    return this.runner.run('reading sync source', async () => {
      const row = await this.db.selectFrom('sync_sources').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : withSinkKeys(this.db, row);
    });
  }

  getAnyTenant(id: string): Promise<SyncSourceRecord | null> {
    return this.runner.run('reading sync source', async () => {
      const row = await this.db.selectFrom('sync_sources').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : withSinkKeys(this.db, row);
    });
  }

  findByPushKey(pushKey: string, branch: string): Promise<SyncSourceRecord[]> {
    return this.runner.run('finding sync source', async () => {
      const rows = await this.db.selectFrom('sync_sources').selectAll().where('push_key', '=', pushKey).where('branch', '=', branch).orderBy('tenant_id').execute();
      return Promise.all(rows.map((row) => withSinkKeys(this.db, row)));
    });
  }

  async list(tenantId: string, options: PageOptions): Promise<Page<SyncSourceRecord>> {
    const start = creationOrderStart(options);
    return this.runner.run('listing sync sources', async () => {
      let query = this.db.selectFrom('sync_sources').selectAll().where('tenant_id', '=', tenantId);
      if (start !== null) query = query.where(afterPosition(start));
      const rows = await query
        .orderBy('created_at')
        .orderBy('id')
        .limit(options.pageSize + 1)
        .execute();
      return pageOf(await Promise.all(rows.map((row) => withSinkKeys(this.db, row))), options.pageSize);
    });
  }

  updateSinkKeys(tenantId: string, id: string, sinkKeys: SinkKeys, atMs: number): Promise<SyncSourceRecord | null> {
    return this.runner.run(
      'updating sync source',
      () =>
        this.db.transaction().execute(async (trx) => {
          const row = await trx.updateTable('sync_sources').set({ updated_at: atMs }).where('tenant_id', '=', tenantId).where('id', '=', id).returningAll().executeTakeFirst();
          if (row === undefined) return null;
          await trx.deleteFrom('sync_source_sink_keys').where('tenant_id', '=', tenantId).where('source_id', '=', id).execute();
          await writeSinkKeys(trx, tenantId, id, sinkKeys);
          return withSinkKeys(trx, row);
        }),
      { foreign_key: sinkGone },
    );
  }

  delete(tenantId: string, id: string): Promise<{ readonly deletedRuleIds: string[] } | null> {
    return this.runner.run('deleting sync source', () =>
      this.db.transaction().execute(async (trx) => {
        const source = await trx.selectFrom('sync_sources').select('id').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
        if (source === undefined) return null;
        const rules = await trx
          .selectFrom('detection_rules')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('detection_rule_sync_id', '=', id)
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        const deletedRuleIds = rules.map((r) => r.id);
        for (const batch of chunks(deletedRuleIds)) {
          await trx.deleteFrom('detection_rule_sinks').where('tenant_id', '=', tenantId).where('rule_id', 'in', batch).execute();
          await trx.deleteFrom('detection_rules').where('tenant_id', '=', tenantId).where('id', 'in', batch).execute();
        }
        await trx.deleteFrom('sync_source_sink_keys').where('tenant_id', '=', tenantId).where('source_id', '=', id).execute();
        await trx.deleteFrom('sync_sources').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
        return { deletedRuleIds };
      }),
    );
  }

  rules(tenantId: string, sourceId: string): Promise<DetectionRuleRecord[]> {
    return this.runner.run('reading synced rules', async () => {
      const rows = await this.db
        .selectFrom('detection_rules')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('detection_rule_sync_id', '=', sourceId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return Promise.all(rows.map((row) => ruleWithSinks(this.db, row)));
    });
  }

  applySync(commit: SyncCommit): Promise<boolean> {
    return this.runner.run('applying repository sync', () => this.db.transaction().execute((trx) => applySyncCommit(trx, commit)), {
      unique: (cause) => new ConflictError("a synced rule's sync_key is already used by another rule of the tenant", { cause, field: 'sync_key' }),
      foreign_key: (cause) => new ValidationError('an event sink of the sink-key map no longer exists', { cause, field: 'event_sink_keys' }),
    });
  }
}

function violations(source: SyncSourceRecord): ViolationErrors {
  return {
    unique: (cause) =>
      new ConflictError(
        `tenant ${JSON.stringify(source.tenantId)} already has a sync source with push_key ${JSON.stringify(source.pushKey)} and branch ${JSON.stringify(source.branch)}`,
        {
          cause,
          field: 'push_key',
        },
      ),
    foreign_key: sinkGone,
  };
}

// writeSinkKeys checks the sinks first in the same transaction; the foreign key is the backstop.
function sinkGone(cause: unknown): ValidationError {
  return new ValidationError('an event sink of event_sink_keys no longer exists', { cause, field: 'event_sink_keys' });
}

/** Inserts the map's rows, after a ValidationError naming the first sink that is not the tenant's. */
async function writeSinkKeys(trx: Transaction<StoreDatabase>, tenantId: string, sourceId: string, sinkKeys: SinkKeys): Promise<void> {
  const entries = Object.entries(sinkKeys);
  const wanted = [...new Set(entries.flatMap(([, ids]) => ids))];
  const found = new Set<string>();
  for (const batch of chunks(wanted)) {
    const rows = await trx.selectFrom('event_sinks').select('id').where('tenant_id', '=', tenantId).where('id', 'in', batch).execute();
    for (const row of rows) found.add(row.id);
  }
  for (const [key, ids] of entries) {
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw new ValidationError(`event sink ${JSON.stringify(missing)} not found`, { field: `event_sink_keys.${key}` });
  }
  const rows = entries.flatMap(([key, ids]) => ids.map((sinkId, position) => ({ source_id: sourceId, tenant_id: tenantId, sink_key: key, sink_id: sinkId, position })));
  for (const batch of chunks(rows, 100)) await trx.insertInto('sync_source_sink_keys').values(batch).execute();
}

async function withSinkKeys(db: Db, row: Selectable<SyncSourcesTable>): Promise<SyncSourceRecord> {
  const links = await db
    .selectFrom('sync_source_sink_keys')
    .select(['sink_key', 'sink_id'])
    .where('tenant_id', '=', row.tenant_id)
    .where('source_id', '=', row.id)
    .orderBy('sink_key')
    .orderBy('position')
    .execute();
  // Through a Map: keys are user text, and `__proto__` must stay an ordinary key.
  const byKey = new Map<string, string[]>();
  for (const link of links) byKey.set(link.sink_key, [...(byKey.get(link.sink_key) ?? []), link.sink_id]);
  const sinkKeys = Object.fromEntries(byKey);
  return {
    id: row.id,
    tenantId: row.tenant_id,
    pushKey: row.push_key,
    branch: row.branch,
    sinkKeys,
    revision: Number(row.revision),
    lastCommitSha: row.last_commit_sha,
    lastCommitMessage: row.last_commit_message,
    lastSyncedAt: nullableMillisOf(row.last_synced_at),
    createdAt: millisOf(row.created_at),
    updatedAt: millisOf(row.updated_at),
  };
}
