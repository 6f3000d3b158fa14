import { beforeEach, describe, expect, it } from 'vitest';
import type { QueryRecord } from '../records.js';
import type { Store } from '../store.js';
import { aCommit, aDelivery, anAlert } from './detection-engine-fixtures.js';
import { aRule, aSink } from './store-fixtures.js';

const t = 1_700_000_000_000;
const minute = 60_000;

function aQueryRecord(overrides: Partial<QueryRecord> = {}): QueryRecord {
  return {
    id: `q-${Math.random().toString(36).slice(2)}`,
    tenantId: 'acme',
    owner: 'server-a',
    status: 'running',
    result: null,
    bytesScanned: 0,
    truncated: false,
    error: null,
    cancelRequestedAt: null,
    createdAt: t,
    updatedAt: t,
    finishedAt: null,
    ...overrides,
  };
}

/**
 * What several servers on one store rely on (docs/scale-out.md): leases, shared query records,
 * and writes that stay right when they race. The races run on one store: an adapter with a pool
 * (PostgreSQL) runs them on separate connections, so they really overlap there.
 */
export function describeScaleOutContract(store: () => Store): void {
  describe('leases', () => {
    it('one holder at a time; the holder renews; an expired or released lease goes to whoever claims it', async () => {
      const leases = store().leases;
      expect(await leases.claim('rule:1', 'a', t, t + minute)).toBe(true);
      expect(await leases.claim('rule:1', 'b', t + 1, t + minute)).toBe(false);
      expect(await leases.holder('rule:1', t + 1)).toBe('a');
      expect(await leases.claim('rule:1', 'a', t + 2, t + 2 * minute)).toBe(true);
      expect(await leases.claim('rule:1', 'b', t + minute, t + 3 * minute)).toBe(false);
      expect(await leases.claim('rule:1', 'b', t + 2 * minute, t + 3 * minute)).toBe(true);
      expect(await leases.holder('rule:1', t + 2 * minute)).toBe('b');
      await leases.release('rule:1', 'a');
      expect(await leases.holder('rule:1', t + 2 * minute)).toBe('b');
      await leases.release('rule:1', 'b');
      expect(await leases.holder('rule:1', t + 2 * minute)).toBeNull();
      expect(await leases.claim('rule:1', 'c', t + 2 * minute, t + 3 * minute)).toBe(true);
      expect(await leases.holder('rule:1', t + 3 * minute)).toBeNull();
    });

    it('of many claimants racing for a free or expired lease, exactly one wins', async () => {
      const leases = store().leases;
      for (const [round, nowMs] of [
        [1, t],
        [2, t + 2 * minute],
      ] as const) {
        const wins = await Promise.all(Array.from({ length: 8 }, (_, i) => leases.claim('maintenance', `s${round}-${i}`, nowMs, nowMs + minute)));
        expect(wins.filter(Boolean)).toHaveLength(1);
      }
    });

    it('releaseAll ends every lease', async () => {
      await store().leases.claim('x', 'a', t, t + minute);
      await store().leases.claim('y', 'b', t, t + minute);
      expect(await store().leases.releaseAll()).toBe(2);
      expect(await store().leases.holder('x', t)).toBeNull();
    });
  });

  describe('window commits under a lease', () => {
    beforeEach(async () => {
      await store().tenants.ensure('acme', t);
    });

    it('commits only while the run still holds the rule lease', async () => {
      const rule = aRule('acme');
      await store().rules.insert(rule);
      const lease = { name: `rule:${rule.id}`, holder: 'a' };
      await store().leases.claim(lease.name, 'a', t, t + minute);
      expect(await store().detectionState.commitWindow(aCommit('acme', rule.id, t, null, { lease }))).toBe(true);
      // Taken over by b after it expired: a's late result is dropped, b's counts.
      await store().leases.claim(lease.name, 'b', t + 2 * minute, t + 3 * minute);
      expect(await store().detectionState.commitWindow(aCommit('acme', rule.id, t + minute, t, { lease }))).toBe(false);
      expect(await store().detectionState.commitWindow(aCommit('acme', rule.id, t + minute, t, { lease: { ...lease, holder: 'b' } }))).toBe(true);
      expect((await store().detectionState.getState(rule.id))?.cursorMs).toBe(t + minute);
    });

    it('of runs of one window racing, exactly one commits, and only its alerts are kept', async () => {
      const sink = aSink('acme');
      await store().sinks.insert(sink);
      const rule = aRule('acme', { eventSinkIds: [sink.id] });
      await store().rules.insert(rule);
      for (const expected of [null, t]) {
        const end = expected === null ? t : t + minute;
        const runs = Array.from({ length: 6 }, () => {
          const alert = anAlert('acme', rule.id, { windowEndMs: end });
          return aCommit('acme', rule.id, end, expected, { alerts: [{ alert, deliveries: [aDelivery(alert, sink.id)] }] });
        });
        const outcomes = await Promise.all(runs.map((run) => store().detectionState.commitWindow(run)));
        expect(outcomes.filter(Boolean)).toHaveLength(1);
      }
      expect((await store().alerts.list('acme', { pageSize: 100 })).items).toHaveLength(2);
      expect(await store().alerts.pendingCount()).toBe(2);
    });

    it('of gap records racing from one cursor, exactly one moves it', async () => {
      const rule = aRule('acme');
      await store().rules.insert(rule);
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => store().detectionState.recordGap('acme', rule.id, null, t, t + 5 * minute, 5)));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await store().detectionState.getState(rule.id)).toMatchObject({ cursorMs: t + 5 * minute, skippedWindows: 5 });
    });
  });

  describe('the delivery outbox shared by several workers', () => {
    beforeEach(async () => {
      await store().tenants.ensure('acme', t);
    });

    it('workers claiming at once lease each delivery to one of them', async () => {
      const sinks = [aSink('acme'), aSink('acme')];
      for (const sink of sinks) await store().sinks.insert(sink);
      const rule = aRule('acme', { eventSinkIds: sinks.map((s) => s.id) });
      await store().rules.insert(rule);
      const alerts = Array.from({ length: 20 }, () => anAlert('acme', rule.id));
      await store().detectionState.commitWindow(
        aCommit('acme', rule.id, t, null, { alerts: alerts.map((alert) => ({ alert, deliveries: sinks.map((s) => aDelivery(alert, s.id)) })) }),
      );
      const claims = await Promise.all(Array.from({ length: 5 }, () => store().alerts.claimDue(t + minute, 40, t + 2 * minute, new Set())));
      const ids = claims.flat().map((c) => c.delivery.id);
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
    });

    it('two deliveries of one alert recorded at once leave the alert settled', async () => {
      const sinks = [aSink('acme'), aSink('acme')];
      for (const sink of sinks) await store().sinks.insert(sink);
      const rule = aRule('acme', { eventSinkIds: sinks.map((s) => s.id) });
      await store().rules.insert(rule);
      for (let round = 0; round < 5; round++) {
        const alert = anAlert('acme', rule.id);
        const deliveries = sinks.map((s) => aDelivery(alert, s.id));
        await store().detectionState.commitWindow(aCommit('acme', rule.id, t + round * minute, round === 0 ? null : t + (round - 1) * minute, { alerts: [{ alert, deliveries }] }));
        await Promise.all(
          deliveries.map((delivery) =>
            store().alerts.recordAttempt(
              delivery.id,
              {
                attempt: { id: `${delivery.id}-1`, deliveryId: delivery.id, alertId: alert.id, at: t + minute, outcome: 'delivered', httpStatus: 200, latencyMs: 3, error: null },
                status: 'delivered',
                nextAttemptAt: t + minute,
              },
              t + minute,
            ),
          ),
        );
        expect((await store().alerts.get('acme', alert.id))?.status).toBe('delivered');
      }
    });
  });

  describe('shared query records', () => {
    it('keeps what the owner writes for any server to read, and forgets it once expired', async () => {
      const queries = store().queries;
      const record = aQueryRecord();
      await queries.insert(record);
      expect(await queries.get(record.id)).toEqual(record);
      await queries.update(record.id, { status: 'running', result: '{"rows":[1]}', bytesScanned: 2 ** 40, truncated: false, error: null, atMs: t + 1000 });
      expect(await queries.get(record.id)).toMatchObject({ status: 'running', result: '{"rows":[1]}', bytesScanned: 2 ** 40, updatedAt: t + 1000, finishedAt: null });
      await queries.update(record.id, { status: 'completed', result: '{"rows":[1,2]}', bytesScanned: 2 ** 41, truncated: true, error: null, atMs: t + 2000 });
      expect(await queries.get(record.id)).toMatchObject({ status: 'completed', truncated: true, finishedAt: t + 2000 });
      expect(await queries.get('nope')).toBeNull();
      expect(await queries.deleteExpired(t + 2000, t)).toBe(0);
      expect(await queries.deleteExpired(t + 2001, t)).toBe(1);
      expect(await queries.get(record.id)).toBeNull();
    });

    it('passes cancel requests for running queries to their owner, and forgets queries whose owner went silent', async () => {
      const queries = store().queries;
      const running = aQueryRecord();
      const done = aQueryRecord({ status: 'completed', finishedAt: t });
      const other = aQueryRecord();
      for (const record of [running, done, other]) await queries.insert(record);
      await queries.requestCancel(running.id, t + 5);
      await queries.requestCancel(done.id, t + 5);
      await queries.requestCancel('unknown', t + 5);
      expect(await queries.cancelRequested([running.id, done.id, other.id])).toEqual([running.id]);
      expect((await queries.get(running.id))?.cancelRequestedAt).toBe(t + 5);
      await queries.heartbeat([other.id, done.id], t + 60_000);
      expect((await queries.get(other.id))?.updatedAt).toBe(t + 60_000);
      expect((await queries.get(done.id))?.updatedAt).toBe(t);
      expect(await queries.deleteExpired(t - 1, t + 30_000)).toBe(1);
      expect(await queries.get(running.id)).toBeNull();
      expect(await queries.get(other.id)).not.toBeNull();
    });
  });
}
