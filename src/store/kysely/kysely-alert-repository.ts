import { sql, type Kysely, type Selectable, type SqlBool, type Transaction } from 'kysely';
import { ValidationError } from '../../core/index.js';
import type { AlertDeliveryRecord, AlertRecord, AlertStatus, ClaimedDelivery, DeliveryAttemptRecord, DeliveryStatus, Page } from '../records.js';
import type { AlertDeliveriesTable, AlertsTable, DeliveryAttemptsTable, StoreDatabase } from '../store-database.js';
import type { AlertListOptions, AlertRepository, AttemptResult } from '../store.js';
import { alertMessageOf, millisOf, nullableMillisOf } from './column-codecs.js';
import { creationOrderStart, pageOf } from './creation-order-page.js';
import type { StoreQueryRunner } from './store-query-runner.js';

/** Alerts, the delivery outbox and the attempts, over Kysely. Writes that change a delivery also settle its alert's status. */
export class KyselyAlertRepository implements AlertRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  async list(tenantId: string, options: AlertListOptions): Promise<Page<AlertRecord>> {
    const start = creationOrderStart(options);
    return this.runner.run('listing alerts', async () => {
      let query = this.db.selectFrom('alerts').selectAll().where('tenant_id', '=', tenantId);
      if (options.ruleId !== undefined) query = query.where('rule_id', '=', options.ruleId);
      if (options.status !== undefined) query = query.where('status', '=', options.status);
      if (start !== null) {
        const [createdAt, id] = start;
        query = query.where(sql<SqlBool>`(created_at < ${createdAt} or (created_at = ${createdAt} and id < ${id}))`);
      }
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(options.pageSize + 1)
        .execute();
      return pageOf(rows.map(alertOf), options.pageSize);
    });
  }

  get(tenantId: string, id: string): Promise<AlertRecord | null> {
    return this.runner.run('reading alert', async () => {
      const row = await this.db.selectFrom('alerts').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : alertOf(row);
    });
  }

  getAnyTenant(id: string): Promise<AlertRecord | null> {
    return this.runner.run('reading alert', async () => {
      const row = await this.db.selectFrom('alerts').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : alertOf(row);
    });
  }

  deliveries(alertId: string): Promise<AlertDeliveryRecord[]> {
    return this.runner.run('reading alert deliveries', async () => {
      const rows = await this.db.selectFrom('alert_deliveries').selectAll().where('alert_id', '=', alertId).orderBy('created_at').orderBy('id').execute();
      return rows.map(deliveryOf);
    });
  }

  attempts(alertId: string): Promise<DeliveryAttemptRecord[]> {
    return this.runner.run('reading delivery attempts', async () => {
      const rows = await this.db.selectFrom('delivery_attempts').selectAll().where('alert_id', '=', alertId).orderBy('at').orderBy('delivery_id').orderBy('id').execute();
      return rows.map(attemptOf);
    });
  }

  claimDue(nowMs: number, limit: number, leaseUntilMs: number, skipSinkIds: ReadonlySet<string>): Promise<ClaimedDelivery[]> {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new ValidationError('limit must be a positive integer', { field: 'limit' });
    return this.runner.run('claiming due deliveries', () =>
      this.db.transaction().execute(async (trx) => {
        let query = trx
          .selectFrom('alert_deliveries')
          .innerJoin('alerts', 'alerts.id', 'alert_deliveries.alert_id')
          .selectAll('alert_deliveries')
          .select('alerts.payload as alert_payload')
          .where('alert_deliveries.status', '=', 'pending')
          .where('alert_deliveries.next_attempt_at', '<=', nowMs)
          .where((eb) => eb.or([eb('alert_deliveries.lease_until', 'is', null), eb('alert_deliveries.lease_until', '<=', nowMs)]));
        if (skipSinkIds.size > 0) query = query.where('alert_deliveries.sink_id', 'not in', [...skipSinkIds]);
        const rows = await query.orderBy('alert_deliveries.next_attempt_at').orderBy('alert_deliveries.id').limit(limit).execute();
        const claimed: ClaimedDelivery[] = [];
        for (const row of rows) {
          // Conditional, so two workers racing for a row (another replica) lease it once.
          const result = await trx
            .updateTable('alert_deliveries')
            .set({ lease_until: leaseUntilMs })
            .where('id', '=', row.id)
            .where('status', '=', 'pending')
            .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowMs)]))
            .executeTakeFirst();
          if (result.numUpdatedRows > 0n) claimed.push({ delivery: deliveryOf(row), payload: alertMessageOf(row.alert_payload, 'alerts.payload') });
        }
        return claimed;
      }),
    );
  }

  recordAttempt(deliveryId: string, result: AttemptResult, atMs: number): Promise<void> {
    return this.runner.run('recording a delivery attempt', () =>
      this.db.transaction().execute(async (trx) => {
        const { attempt } = result;
        // The alert row is locked first, so two deliveries of one alert finishing at once on two
        // servers settle its status one after the other, each seeing the other's delivery.
        const delivery = await trx.selectFrom('alert_deliveries').select('alert_id').where('id', '=', deliveryId).executeTakeFirst();
        if (delivery !== undefined) await lockAlert(trx, delivery.alert_id, atMs);
        await trx.insertInto('delivery_attempts').values(attemptRow(attempt)).execute();
        const updated = await trx
          .updateTable('alert_deliveries')
          .set({
            status: result.status,
            attempts: sql<number>`attempts + 1`,
            next_attempt_at: result.nextAttemptAt,
            lease_until: null,
            last_error: attempt.error,
            last_http_status: attempt.httpStatus,
            ...(result.status === 'delivered' ? { delivered_at: attempt.at } : {}),
            updated_at: atMs,
          })
          .where('id', '=', deliveryId)
          .returning('alert_id')
          .executeTakeFirst();
        if (updated !== undefined) await settleAlert(trx, updated.alert_id, atMs);
      }),
    );
  }

  resend(tenantId: string, alertId: string, nowMs: number): Promise<number> {
    return this.runner.run('re-queueing an alert', () =>
      this.db.transaction().execute(async (trx) => {
        await lockAlert(trx, alertId, nowMs);
        const result = await trx
          .updateTable('alert_deliveries')
          .set({ status: 'pending', next_attempt_at: nowMs, queued_at: nowMs, lease_until: null, updated_at: nowMs })
          .where('tenant_id', '=', tenantId)
          .where('alert_id', '=', alertId)
          .executeTakeFirst();
        const count = Number(result.numUpdatedRows);
        if (count > 0) await settleAlert(trx, alertId, nowMs);
        return count;
      }),
    );
  }

  releaseLeases(): Promise<number> {
    return this.runner.run('releasing delivery leases', async () => {
      const result = await this.db.updateTable('alert_deliveries').set({ lease_until: null }).where('lease_until', 'is not', null).executeTakeFirst();
      return Number(result.numUpdatedRows);
    });
  }

  pendingCount(): Promise<number> {
    return this.runner.run('counting pending deliveries', async () => {
      const row = await this.db
        .selectFrom('alert_deliveries')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    });
  }

  nextDueAt(): Promise<number | null> {
    return this.runner.run('reading the next due delivery', async () => {
      // A leased row is due again only when its lease expires.
      const row = await this.db
        .selectFrom('alert_deliveries')
        .select(sql<number | string | null>`min(case when lease_until is not null and lease_until > next_attempt_at then lease_until else next_attempt_at end)`.as('due'))
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return row?.due === null || row?.due === undefined ? null : millisOf(row.due);
    });
  }
}

/** An alert's status from its deliveries' (E13): pending while any may still be tried, failed if any gave up. */
function alertStatusOf(statuses: readonly DeliveryStatus[]): AlertStatus {
  if (statuses.length === 0) return 'no_sinks';
  if (statuses.includes('pending')) return 'pending';
  return statuses.includes('failed') ? 'failed' : 'delivered';
}

/** Takes the alert's row lock for the rest of the transaction (PostgreSQL; SQLite's transactions already exclude each other). */
async function lockAlert(trx: Transaction<StoreDatabase>, alertId: string, atMs: number): Promise<void> {
  await trx.updateTable('alerts').set({ updated_at: atMs }).where('id', '=', alertId).execute();
}

async function settleAlert(trx: Transaction<StoreDatabase>, alertId: string, atMs: number): Promise<void> {
  const rows = await trx.selectFrom('alert_deliveries').select('status').where('alert_id', '=', alertId).execute();
  await trx
    .updateTable('alerts')
    .set({ status: alertStatusOf(rows.map((r) => r.status)), updated_at: atMs })
    .where('id', '=', alertId)
    .execute();
}

export function alertRow(alert: AlertRecord) {
  return {
    id: alert.id,
    tenant_id: alert.tenantId,
    rule_id: alert.ruleId,
    rule_name: alert.ruleName,
    severity: alert.severity,
    window_start_ms: alert.windowStartMs,
    window_end_ms: alert.windowEndMs,
    status: alert.status,
    dedup_key: alert.dedupKey,
    payload: JSON.stringify(alert.payload),
    created_at: alert.createdAt,
    updated_at: alert.updatedAt,
  };
}

export function deliveryRow(delivery: AlertDeliveryRecord) {
  return {
    id: delivery.id,
    alert_id: delivery.alertId,
    tenant_id: delivery.tenantId,
    sink_id: delivery.sinkId,
    sink_type: delivery.sinkType,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.nextAttemptAt,
    queued_at: delivery.queuedAt,
    lease_until: null,
    last_error: delivery.lastError,
    last_http_status: delivery.lastHttpStatus,
    delivered_at: delivery.deliveredAt,
    created_at: delivery.createdAt,
    updated_at: delivery.updatedAt,
  };
}

function attemptRow(attempt: DeliveryAttemptRecord) {
  return {
    id: attempt.id,
    delivery_id: attempt.deliveryId,
    alert_id: attempt.alertId,
    at: attempt.at,
    outcome: attempt.outcome,
    http_status: attempt.httpStatus,
    latency_ms: Math.round(attempt.latencyMs),
    error: attempt.error,
  };
}

function alertOf(row: Selectable<AlertsTable>): AlertRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    severity: row.severity,
    windowStartMs: millisOf(row.window_start_ms),
    windowEndMs: millisOf(row.window_end_ms),
    status: row.status,
    dedupKey: row.dedup_key,
    payload: alertMessageOf(row.payload, 'alerts.payload'),
    createdAt: millisOf(row.created_at),
    updatedAt: millisOf(row.updated_at),
  };
}

function deliveryOf(row: Selectable<AlertDeliveriesTable>): AlertDeliveryRecord {
  return {
    id: row.id,
    alertId: row.alert_id,
    tenantId: row.tenant_id,
    sinkId: row.sink_id,
    sinkType: row.sink_type,
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: millisOf(row.next_attempt_at),
    queuedAt: millisOf(row.queued_at),
    lastError: row.last_error,
    lastHttpStatus: row.last_http_status === null ? null : Number(row.last_http_status),
    deliveredAt: nullableMillisOf(row.delivered_at),
    createdAt: millisOf(row.created_at),
    updatedAt: millisOf(row.updated_at),
  };
}

function attemptOf(row: Selectable<DeliveryAttemptsTable>): DeliveryAttemptRecord {
  return {
    id: row.id,
    deliveryId: row.delivery_id,
    alertId: row.alert_id,
    at: millisOf(row.at),
    outcome: row.outcome,
    httpStatus: row.http_status === null ? null : Number(row.http_status),
    latencyMs: Number(row.latency_ms),
    error: row.error,
  };
}
