import type { Kysely, Selectable } from 'kysely';
import { ConflictError, NotFoundError, ValidationError } from '../../core/index.js';
import type { EventSinkRecord, Page } from '../records.js';
import type { EventSinksTable, StoreDatabase } from '../store-database.js';
import type { EventSinkChanges, EventSinkRepository, PageOptions } from '../store.js';
import { millisOf, objectOf } from './column-codecs.js';
import { afterPosition, creationOrderStart, pageOf } from './creation-order-page.js';
import type { StoreQueryRunner } from './store-query-runner.js';

// Well under SQLite's and PostgreSQL's bound-parameter limits.
const idBatchSize = 500;

/** Event sinks over Kysely, for every dialect. */
export class KyselyEventSinkRepository implements EventSinkRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
    private readonly options: { readonly selectForUpdate: boolean } = { selectForUpdate: false },
  ) {}

  insert(sink: EventSinkRecord): Promise<void> {
    return this.runner.run(
      'inserting event sink',
      async () => {
        const tenant = await this.db.selectFrom('tenants').select('id').where('id', '=', sink.tenantId).executeTakeFirst();
        if (tenant === undefined) throw new NotFoundError(`tenant "${sink.tenantId}" not found`);
        await this.db
          .insertInto('event_sinks')
          .values({
            id: sink.id,
            tenant_id: sink.tenantId,
            name: sink.name,
            description: sink.description,
            sink_type: sink.type,
            configuration: JSON.stringify(sink.config),
            sealed_secrets: sink.sealedSecrets,
            chat_integration_id: sink.chatIntegrationId,
            created_at: sink.createdAt,
            updated_at: sink.updatedAt,
          })
          .execute();
      },
      {
        unique: (cause) => new ConflictError(`event sink "${sink.id}" already exists`, { cause }),
        foreign_key: (cause) => integrationNotFound(sink.chatIntegrationId, cause),
      },
    );
  }

  get(tenantId: string, id: string): Promise<EventSinkRecord | null> {
    return this.runner.run('reading event sink', async () => {
      const row = await this.db.selectFrom('event_sinks').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : toSink(row);
    });
  }

  getAnyTenant(id: string): Promise<EventSinkRecord | null> {
    return this.runner.run('reading event sink', async () => {
      const row = await this.db.selectFrom('event_sinks').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : toSink(row);
    });
  }

  async list(tenantId: string, options: PageOptions): Promise<Page<EventSinkRecord>> {
    const start = creationOrderStart(options);
    return this.runner.run('listing event sinks', async () => {
      let query = this.db.selectFrom('event_sinks').selectAll().where('tenant_id', '=', tenantId);
      if (start !== null) query = query.where(afterPosition(start));
      const rows = await query
        .orderBy('created_at')
        .orderBy('id')
        .limit(options.pageSize + 1)
        .execute();
      return pageOf(rows.map(toSink), options.pageSize);
    });
  }

  existing(tenantId: string, ids: readonly string[]): Promise<Set<string>> {
    return this.runner.run('checking event sinks', async () => {
      const found = new Set<string>();
      const unique = [...new Set(ids)];
      for (let start = 0; start < unique.length; start += idBatchSize) {
        const rows = await this.db
          .selectFrom('event_sinks')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', unique.slice(start, start + idBatchSize))
          .execute();
        for (const row of rows) found.add(row.id);
      }
      return found;
    });
  }

  update(tenantId: string, id: string, changes: EventSinkChanges, atMs: number): Promise<EventSinkRecord | null> {
    return this.runner.run(
      'updating event sink',
      async () => {
        const c = changes;
        const set = {
          ...(c.name === undefined ? {} : { name: c.name }),
          ...(c.description === undefined ? {} : { description: c.description }),
          ...(c.type === undefined ? {} : { sink_type: c.type }),
          ...(c.config === undefined ? {} : { configuration: JSON.stringify(c.config) }),
          ...(c.sealedSecrets === undefined ? {} : { sealed_secrets: c.sealedSecrets }),
          ...(c.chatIntegrationId === undefined ? {} : { chat_integration_id: c.chatIntegrationId }),
        };
        if (Object.keys(set).length === 0) return this.get(tenantId, id);
        const row = await this.db
          .updateTable('event_sinks')
          .set({ ...set, updated_at: atMs })
          .where('tenant_id', '=', tenantId)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        return row === undefined ? null : toSink(row);
      },
      { foreign_key: (cause) => integrationNotFound(changes.chatIntegrationId ?? null, cause) },
    );
  }

  delete(tenantId: string, id: string, atMs: number): Promise<{ readonly detachedRuleIds: string[] } | null> {
    return this.runner.run('deleting event sink', () =>
      this.db.transaction().execute(async (trx) => {
        // The sink's row is locked first (PostgreSQL): a rule linking it (whose foreign key check
        // holds a share lock on the row) either commits before, and its link is found below and
        // detached, or waits and then fails as linking a sink that is gone. Without the lock the
        // last delete failed on the link committed meanwhile.
        const select = trx.selectFrom('event_sinks').select('id').where('tenant_id', '=', tenantId).where('id', '=', id);
        const sink = await (this.options.selectForUpdate ? select.forUpdate() : select).executeTakeFirst();
        if (sink === undefined) return null;
        const links = await trx.selectFrom('detection_rule_sinks').select('rule_id').where('tenant_id', '=', tenantId).where('sink_id', '=', id).orderBy('rule_id').execute();
        const detachedRuleIds = links.map((l) => l.rule_id);
        if (detachedRuleIds.length > 0) {
          await trx.deleteFrom('detection_rule_sinks').where('tenant_id', '=', tenantId).where('sink_id', '=', id).execute();
          for (let start = 0; start < detachedRuleIds.length; start += idBatchSize) {
            await trx
              .updateTable('detection_rules')
              .set({ updated_at: atMs })
              .where('tenant_id', '=', tenantId)
              .where('id', 'in', detachedRuleIds.slice(start, start + idBatchSize))
              .execute();
          }
        }
        // Sync sources stop mapping keys to it; a key left with no sink fails the next sync, by name.
        await trx.deleteFrom('sync_source_sink_keys').where('tenant_id', '=', tenantId).where('sink_id', '=', id).execute();
        await trx.deleteFrom('event_sinks').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
        return { detachedRuleIds };
      }),
    );
  }
}

function integrationNotFound(id: string | null, cause: unknown): ValidationError {
  return new ValidationError(`chat integration ${JSON.stringify(id)} not found`, { cause, field: 'chat_integration_id' });
}

function toSink(row: Selectable<EventSinksTable>): EventSinkRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    description: row.description,
    type: row.sink_type,
    config: objectOf(row.configuration, 'event_sinks.configuration'),
    sealedSecrets: row.sealed_secrets,
    chatIntegrationId: row.chat_integration_id,
    createdAt: millisOf(row.created_at),
    updatedAt: millisOf(row.updated_at),
  };
}
