import type { Kysely, Selectable, Transaction } from 'kysely';
import { ConflictError, NotFoundError, StoreError, ValidationError } from '../../core/index.js';
import type { AlertTemplateRecord } from '../../domain/index.js';
import type { DetectionRuleRecord, DetectionRuleSummary, Page } from '../records.js';
import type { DetectionRulesTable, StoreDatabase } from '../store-database.js';
import type { DetectionRuleChanges, DetectionRuleRepository, PageOptions } from '../store.js';
import { millisOf, nullableMillisOf, objectOf, stringArrayOf } from './column-codecs.js';
import { afterPosition, creationOrderStart, pageOf } from './creation-order-page.js';
import type { StoreQueryRunner, ViolationErrors } from './store-query-runner.js';

/** Detection rules over Kysely, for every dialect. Writes that touch a rule's sinks run in one transaction. */
export class KyselyDetectionRuleRepository implements DetectionRuleRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  insert(rule: DetectionRuleRecord): Promise<void> {
    return this.runner.run(
      'inserting detection rule',
      () =>
        this.db.transaction().execute(async (trx) => {
          const tenant = await trx.selectFrom('tenants').select('id').where('id', '=', rule.tenantId).executeTakeFirst();
          if (tenant === undefined) throw new NotFoundError(`tenant "${rule.tenantId}" not found`);
          await checkSinks(trx, rule.tenantId, rule.eventSinkIds);
          await trx.insertInto('detection_rules').values(toRow(rule)).execute();
          await linkSinks(trx, rule.tenantId, rule.id, rule.eventSinkIds);
        }),
      violations(rule.syncKey, rule.id),
    );
  }

  get(tenantId: string, id: string): Promise<DetectionRuleRecord | null> {
    return this.runner.run('reading detection rule', async () => {
      const row = await this.db.selectFrom('detection_rules').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : this.withSinks(this.db, row);
    });
  }

  getAnyTenant(id: string): Promise<DetectionRuleRecord | null> {
    return this.runner.run('reading detection rule', async () => {
      const row = await this.db.selectFrom('detection_rules').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : this.withSinks(this.db, row);
    });
  }

  getBySyncKey(tenantId: string, syncKey: string): Promise<DetectionRuleRecord | null> {
    return this.runner.run('reading detection rule', async () => {
      const row = await this.db.selectFrom('detection_rules').selectAll().where('tenant_id', '=', tenantId).where('sync_key', '=', syncKey).executeTakeFirst();
      return row === undefined ? null : this.withSinks(this.db, row);
    });
  }

  listBySyncKeyAnyTenant(syncKey: string): Promise<DetectionRuleRecord[]> {
    return this.runner.run('reading detection rules', async () => {
      const rows = await this.db.selectFrom('detection_rules').selectAll().where('sync_key', '=', syncKey).orderBy('created_at').orderBy('id').execute();
      return Promise.all(rows.map((row) => this.withSinks(this.db, row)));
    });
  }

  async list(tenantId: string, options: PageOptions): Promise<Page<DetectionRuleSummary>> {
    const start = creationOrderStart(options);
    return this.runner.run('listing detection rules', async () => {
      let query = this.db.selectFrom('detection_rules').selectAll().where('tenant_id', '=', tenantId);
      if (start !== null) query = query.where(afterPosition(start));
      // One row more than asked tells whether another page exists without a count.
      const rows = await query
        .orderBy('created_at')
        .orderBy('id')
        .limit(options.pageSize + 1)
        .execute();
      return pageOf(rows.map(toSummary), options.pageSize);
    });
  }

  listUsingSink(tenantId: string, sinkId: string): Promise<string[]> {
    return this.runner.run('listing rules of a sink', async () => {
      const rows = await this.db.selectFrom('detection_rule_sinks').select('rule_id').where('tenant_id', '=', tenantId).where('sink_id', '=', sinkId).orderBy('rule_id').execute();
      return rows.map((r) => r.rule_id);
    });
  }

  update(tenantId: string, id: string, changes: DetectionRuleChanges, atMs: number): Promise<DetectionRuleRecord | null> {
    return this.runner.run(
      'updating detection rule',
      () =>
        this.db.transaction().execute(async (trx) => {
          const set = toChangedColumns(changes);
          if (Object.keys(set).length === 0 && changes.eventSinkIds === undefined) {
            const row = await trx.selectFrom('detection_rules').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
            return row === undefined ? null : this.withSinks(trx, row);
          }
          const row = await trx
            .updateTable('detection_rules')
            .set({ ...set, updated_at: atMs })
            .where('tenant_id', '=', tenantId)
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirst();
          if (row === undefined) return null;
          if (changes.eventSinkIds !== undefined) {
            await checkSinks(trx, tenantId, changes.eventSinkIds);
            await trx.deleteFrom('detection_rule_sinks').where('rule_id', '=', id).execute();
            await linkSinks(trx, tenantId, id, changes.eventSinkIds);
          }
          return this.withSinks(trx, row);
        }),
      violations(changes.syncKey ?? null, id),
    );
  }

  delete(tenantId: string, id: string): Promise<boolean> {
    return this.runner.run('deleting detection rule', () =>
      this.db.transaction().execute(async (trx) => {
        // The links cascade too; deleting them first does not depend on the dialect's cascade support.
        await trx.deleteFrom('detection_rule_sinks').where('rule_id', '=', id).where('tenant_id', '=', tenantId).execute();
        const result = await trx.deleteFrom('detection_rules').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
        return result.numDeletedRows > 0n;
      }),
    );
  }

  markAlerted(tenantId: string, id: string, atMs: number): Promise<boolean> {
    return this.runner.run('recording rule alert', async () => {
      const result = await this.db.updateTable('detection_rules').set({ last_alerted_at: atMs }).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    });
  }

  private withSinks(db: Kysely<StoreDatabase> | Transaction<StoreDatabase>, row: Selectable<DetectionRulesTable>): Promise<DetectionRuleRecord> {
    return ruleWithSinks(db, row);
  }
}

export function violations(syncKey: string | null, ruleId: string): ViolationErrors {
  return {
    unique: (cause) =>
      syncKey === null
        ? new ConflictError(`detection rule "${ruleId}" already exists`, { cause })
        : new ConflictError(`sync_key ${JSON.stringify(syncKey)} is already used by another rule of the tenant`, { cause, field: 'sync_key' }),
    // checkSinks runs first in the same transaction; the foreign key catches a sink deleted by a
    // process that does not share this connection's lock (another replica on PostgreSQL).
    foreign_key: (cause) => new ValidationError('an event sink of event_sink_ids no longer exists', { cause, field: 'event_sink_ids' }),
  };
}

/** ValidationError naming the first id that is listed twice or is not a sink of the tenant. */
export async function checkSinks(trx: Transaction<StoreDatabase>, tenantId: string, sinkIds: readonly string[]): Promise<void> {
  if (sinkIds.length === 0) return;
  const twice = sinkIds.findIndex((id, i) => sinkIds.indexOf(id) !== i);
  if (twice >= 0) throw new ValidationError(`event sink ${JSON.stringify(sinkIds[twice])} is listed twice`, { field: `event_sink_ids[${twice}]` });
  const rows = await trx
    .selectFrom('event_sinks')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...sinkIds])
    .execute();
  const found = new Set(rows.map((r) => r.id));
  const missing = sinkIds.findIndex((id) => !found.has(id));
  if (missing >= 0) {
    throw new ValidationError(`event sink ${JSON.stringify(sinkIds[missing])} not found`, { field: `event_sink_ids[${missing}]` });
  }
}

export async function linkSinks(trx: Transaction<StoreDatabase>, tenantId: string, ruleId: string, sinkIds: readonly string[]): Promise<void> {
  if (sinkIds.length === 0) return;
  await trx
    .insertInto('detection_rule_sinks')
    .values(sinkIds.map((sinkId, position) => ({ rule_id: ruleId, tenant_id: tenantId, sink_id: sinkId, position })))
    .execute();
}

export function toRow(rule: DetectionRuleRecord) {
  return {
    id: rule.id,
    tenant_id: rule.tenantId,
    name: rule.name,
    description: rule.description,
    query_text: rule.queryText,
    prepared_query_id: rule.preparedQueryId,
    time_range_s: rule.timeRangeS,
    run_frequency_s: rule.runFrequencyS,
    debounce: rule.debounce ? 1 : 0,
    alert_per_row: rule.alertPerRow ? 1 : 0,
    dedup_window_s: rule.dedupWindowS,
    enabled_state_override: rule.enabledStateOverride,
    enabled_state_synced: rule.enabledStateSynced,
    severity: rule.severity,
    alert_template: templateText(rule.alertTemplate),
    tags: JSON.stringify(rule.tags),
    sync_key: rule.syncKey,
    detection_rule_sync_id: rule.detectionRuleSyncId,
    author_user_id: rule.authorUserId,
    created_at: rule.createdAt,
    updated_at: rule.updatedAt,
    last_alerted_at: rule.lastAlertedAt,
  };
}

export function toChangedColumns(changes: DetectionRuleChanges) {
  const c = changes;
  return {
    ...(c.name === undefined ? {} : { name: c.name }),
    ...(c.description === undefined ? {} : { description: c.description }),
    ...(c.queryText === undefined ? {} : { query_text: c.queryText }),
    ...(c.preparedQueryId === undefined ? {} : { prepared_query_id: c.preparedQueryId }),
    ...(c.timeRangeS === undefined ? {} : { time_range_s: c.timeRangeS }),
    ...(c.runFrequencyS === undefined ? {} : { run_frequency_s: c.runFrequencyS }),
    ...(c.debounce === undefined ? {} : { debounce: c.debounce ? 1 : 0 }),
    ...(c.alertPerRow === undefined ? {} : { alert_per_row: c.alertPerRow ? 1 : 0 }),
    ...(c.dedupWindowS === undefined ? {} : { dedup_window_s: c.dedupWindowS }),
    ...(c.enabledStateOverride === undefined ? {} : { enabled_state_override: c.enabledStateOverride }),
    ...(c.enabledStateSynced === undefined ? {} : { enabled_state_synced: c.enabledStateSynced }),
    ...(c.severity === undefined ? {} : { severity: c.severity }),
    ...(c.alertTemplate === undefined ? {} : { alert_template: templateText(c.alertTemplate) }),
    ...(c.tags === undefined ? {} : { tags: JSON.stringify(c.tags) }),
    ...(c.syncKey === undefined ? {} : { sync_key: c.syncKey }),
  };
}

function templateText(template: AlertTemplateRecord | null): string | null {
  return template === null ? null : JSON.stringify(template);
}

/** The rule of a row, with its sinks in order. */
export async function ruleWithSinks(db: Kysely<StoreDatabase> | Transaction<StoreDatabase>, row: Selectable<DetectionRulesTable>): Promise<DetectionRuleRecord> {
  const links = await db.selectFrom('detection_rule_sinks').select('sink_id').where('rule_id', '=', row.id).orderBy('position').execute();
  return { ...toSummary(row), eventSinkIds: links.map((l) => l.sink_id) };
}

export function toSummary(row: Selectable<DetectionRulesTable>): DetectionRuleSummary {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    description: row.description,
    queryText: row.query_text,
    preparedQueryId: row.prepared_query_id,
    timeRangeS: Number(row.time_range_s),
    runFrequencyS: Number(row.run_frequency_s),
    debounce: Number(row.debounce) === 1,
    alertPerRow: Number(row.alert_per_row) === 1,
    dedupWindowS: row.dedup_window_s === null ? null : Number(row.dedup_window_s),
    enabledStateOverride: row.enabled_state_override,
    enabledStateSynced: row.enabled_state_synced,
    severity: row.severity,
    alertTemplate: row.alert_template === null ? null : templateOf(row.alert_template),
    tags: stringArrayOf(row.tags, 'detection_rules.tags'),
    syncKey: row.sync_key,
    detectionRuleSyncId: row.detection_rule_sync_id,
    authorUserId: row.author_user_id,
    createdAt: millisOf(row.created_at),
    updatedAt: millisOf(row.updated_at),
    lastAlertedAt: nullableMillisOf(row.last_alerted_at),
  };
}

function templateOf(text: string): AlertTemplateRecord {
  const value = objectOf(text, 'detection_rules.alert_template');
  if (!Array.isArray(value.info) || !Array.isArray(value.actions)) throw new StoreError('corrupt detection_rules.alert_template column: expected info and actions');
  return value as unknown as AlertTemplateRecord;
}
