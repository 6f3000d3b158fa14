import { ConflictError, NotFoundError, type Clock } from '../core/index.js';
import type { AlertDeliveryRecord, AlertRecord, AlertStatus, DeliveryAttemptRecord, Page, Store } from '../store/index.js';
import type { Actor } from './actor.js';
import type { AuditTrail } from './audit-trail.js';
import { checkPageSize } from './detection-rule-service.js';

export const maxAlertPageSize = 1000;

/** An alert with its outbox rows and every attempt at them. */
export interface AlertDetail {
  readonly alert: AlertRecord;
  readonly deliveries: readonly AlertDeliveryRecord[];
  readonly attempts: readonly DeliveryAttemptRecord[];
}

/** Reads alerts and re-queues them (detections.md E13: every attempt can be listed and re-sent). */
export class AlertService {
  constructor(
    private readonly store: Store,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /** The tenant's alerts, newest first, a page at a time. */
  list(tenantId: string, pageSize: number, pageToken?: string, filters: { ruleId?: string; status?: AlertStatus } = {}): Promise<Page<AlertRecord>> {
    checkPageSize(pageSize, maxAlertPageSize);
    return this.store.alerts.list(tenantId, { pageSize, ...(pageToken ? { pageToken } : {}), ...filters });
  }

  /** An alert's deliveries, in the rule's sink order. */
  deliveriesOf(alertId: string): Promise<AlertDeliveryRecord[]> {
    return this.store.alerts.deliveries(alertId);
  }

  /** The alert with its deliveries and attempts; another tenant's alert answers like an unknown one. */
  async find(id: string, canSeeTenant: (tenantId: string) => boolean): Promise<AlertDetail> {
    const alert = await this.store.alerts.getAnyTenant(id);
    if (!alert || !canSeeTenant(alert.tenantId)) throw new NotFoundError(`alert ${JSON.stringify(id)} not found`);
    const [deliveries, attempts] = await Promise.all([this.store.alerts.deliveries(alert.id), this.store.alerts.attempts(alert.id)]);
    return { alert, deliveries, attempts };
  }

  /**
   * Re-queues every delivery of the alert, delivered ones included, with a new give-up horizon.
   * A suppressed alert, or one whose rule had no sinks, has nothing to re-send: ConflictError.
   */
  async resend(id: string, canSeeTenant: (tenantId: string) => boolean, actor: Actor): Promise<AlertDetail> {
    const { alert } = await this.find(id, canSeeTenant);
    const count = await this.store.alerts.resend(alert.tenantId, alert.id, this.clock.nowMs());
    if (count === 0) throw new ConflictError(`alert ${JSON.stringify(id)} has no deliveries to re-send (it is ${alert.status})`);
    await this.audit.record(alert.tenantId, actor, 'alert.resend', alert.id, { rule_id: alert.ruleId, deliveries: count });
    return this.find(id, canSeeTenant);
  }
}
