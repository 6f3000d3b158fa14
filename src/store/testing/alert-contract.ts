import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../core/index.js';
import type { AlertRecord } from '../records.js';
import type { Store } from '../store.js';
import { aCommit, aDelivery, anAlert } from './detection-engine-fixtures.js';
import { aRule } from './store-fixtures.js';

const t = 1_700_000_000_000;

/** Alerts, the outbox and delivery attempts (detections.md E13). */
export function describeAlertContract(store: () => Store): void {
  describe('alerts and their outbox', () => {
    let ruleId: string;
    let cursor: number | null;
    beforeEach(async () => {
      await store().tenants.ensure('acme', t);
      await store().tenants.ensure('globex', t);
      const rule = aRule('acme');
      await store().rules.insert(rule);
      ruleId = rule.id;
      cursor = null;
    });

    /** Stores alerts the way the scheduler does: with a window commit. */
    async function save(...alerts: { alert: AlertRecord; sinks?: string[] }[]): Promise<void> {
      const end = (cursor ?? t) + 60_000;
      const ok = await store().detectionState.commitWindow(
        aCommit('acme', ruleId, end, cursor, { alerts: alerts.map(({ alert, sinks = [] }) => ({ alert, deliveries: sinks.map((s) => aDelivery(alert, s)) })) }),
      );
      expect(ok).toBe(true);
      cursor = end;
    }

    it("lists a tenant's alerts newest first, a page at a time, with filters", async () => {
      const alerts = Array.from({ length: 5 }, (_, i) => anAlert('acme', ruleId, { createdAt: t + i, status: i % 2 === 0 ? 'pending' : 'suppressed' }));
      await save(...alerts.map((alert) => ({ alert })));
      const other = aRule('globex');
      await store().rules.insert(other);
      await store().detectionState.commitWindow(aCommit('globex', other.id, t, null, { alerts: [{ alert: anAlert('globex', other.id), deliveries: [] }] }));
      const first = await store().alerts.list('acme', { pageSize: 2 });
      expect(first.items.map((a) => a.createdAt)).toEqual([t + 4, t + 3]);
      const second = await store().alerts.list('acme', { pageSize: 2, pageToken: first.nextPageToken! });
      const third = await store().alerts.list('acme', { pageSize: 2, pageToken: second.nextPageToken! });
      expect([...second.items, ...third.items].map((a) => a.createdAt)).toEqual([t + 2, t + 1, t]);
      expect(third.nextPageToken).toBeNull();
      expect((await store().alerts.list('acme', { pageSize: 10, status: 'suppressed' })).items.map((a) => a.createdAt)).toEqual([t + 3, t + 1]);
      expect((await store().alerts.list('acme', { pageSize: 10, ruleId: 'other' })).items).toEqual([]);
      expect(await store().alerts.get('globex', alerts[0]!.id)).toBeNull();
      expect(await store().alerts.getAnyTenant(alerts[0]!.id)).toEqual(alerts[0]);
    });

    it('claims due deliveries once, oldest due first, and again when a lease expires', async () => {
      const a = anAlert('acme', ruleId, { createdAt: t });
      const b = anAlert('acme', ruleId, { createdAt: t + 10 });
      await save({ alert: a, sinks: ['s1', 's2'] }, { alert: b, sinks: ['s1'] });
      const none = new Set<string>();
      expect(await store().alerts.claimDue(t - 1, 10, t + 1000, none)).toEqual([]);
      const claimed = await store().alerts.claimDue(t + 10, 10, t + 1000, none);
      expect(claimed.map((c) => [c.delivery.alertId, c.delivery.sinkId])).toHaveLength(3);
      expect(claimed[0]!.payload).toEqual(a.payload);
      expect(await store().alerts.claimDue(t + 10, 10, t + 1000, none)).toEqual([]);
      // The worker died: its leases expire and the deliveries are claimable again.
      expect(await store().alerts.claimDue(t + 1000, 10, t + 2000, new Set(['s2']))).toHaveLength(2);
      expect(await store().alerts.nextDueAt()).toBe(t + 1000);
      expect(await store().alerts.releaseLeases()).toBe(3); // the two live leases and the expired one
      expect(await store().alerts.claimDue(t + 10, 10, t + 1000, none)).toHaveLength(3);
    });

    it('records attempts and settles the delivery and the alert', async () => {
      const alert = anAlert('acme', ruleId);
      await save({ alert, sinks: ['s1', 's2'] });
      const [d1, d2] = await store().alerts.deliveries(alert.id);
      const attempt = (deliveryId: string, at: number, outcome: 'delivered' | 'retryable' | 'permanent', httpStatus: number | null, error: string | null) => ({
        id: newId(),
        deliveryId,
        alertId: alert.id,
        at,
        outcome,
        httpStatus,
        latencyMs: 12,
        error,
      });
      await store().alerts.claimDue(t + 30_000, 10, t + 90_000, new Set());
      await store().alerts.recordAttempt(d1!.id, { attempt: attempt(d1!.id, t + 31_000, 'retryable', 503, 'HTTP 503'), status: 'pending', nextAttemptAt: t + 32_000 }, t + 31_000);
      expect(await store().alerts.deliveries(alert.id)).toEqual([
        expect.objectContaining({ id: d1!.id, status: 'pending', attempts: 1, nextAttemptAt: t + 32_000, lastError: 'HTTP 503', lastHttpStatus: 503 }),
        expect.objectContaining({ id: d2!.id, status: 'pending', attempts: 0 }),
      ]);
      // The released delivery is claimable when due, without waiting for its old lease.
      expect((await store().alerts.claimDue(t + 32_000, 10, t + 92_000, new Set())).map((c) => c.delivery.id)).toEqual([d1!.id]);
      await store().alerts.recordAttempt(d1!.id, { attempt: attempt(d1!.id, t + 33_000, 'delivered', 200, null), status: 'delivered', nextAttemptAt: t + 32_000 }, t + 33_000);
      expect((await store().alerts.get('acme', alert.id))?.status).toBe('pending');
      await store().alerts.recordAttempt(d2!.id, { attempt: attempt(d2!.id, t + 34_000, 'permanent', 400, 'HTTP 400'), status: 'failed', nextAttemptAt: t + 32_000 }, t + 34_000);
      expect(await store().alerts.get('acme', alert.id)).toMatchObject({ status: 'failed', updatedAt: t + 34_000 });
      expect((await store().alerts.deliveries(alert.id))[0]).toMatchObject({ status: 'delivered', deliveredAt: t + 33_000, attempts: 2 });
      expect((await store().alerts.attempts(alert.id)).map((a) => [a.outcome, a.httpStatus, a.latencyMs])).toEqual([
        ['retryable', 503, 12],
        ['delivered', 200, 12],
        ['permanent', 400, 12],
      ]);
      expect(await store().alerts.pendingCount()).toBe(0);
      expect(await store().alerts.nextDueAt()).toBeNull();

      expect(await store().alerts.resend('globex', alert.id, t + 50_000)).toBe(0);
      expect(await store().alerts.resend('acme', alert.id, t + 50_000)).toBe(2);
      expect((await store().alerts.get('acme', alert.id))?.status).toBe('pending');
      expect(await store().alerts.deliveries(alert.id)).toEqual([
        expect.objectContaining({ status: 'pending', nextAttemptAt: t + 50_000, queuedAt: t + 50_000, attempts: 2 }),
        expect.objectContaining({ status: 'pending', nextAttemptAt: t + 50_000, queuedAt: t + 50_000, attempts: 1 }),
      ]);
    });
  });
}
