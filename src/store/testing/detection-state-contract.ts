import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../store.js';
import { aCommit, aDelivery, anAlert } from './detection-engine-fixtures.js';
import { aRule, aSink } from './store-fixtures.js';

const t = 1_700_000_000_000;
const minute = 60_000;

/** The scheduler's cursors and the evaluator's memory (detections.md E2, E5, E6, E13). */
export function describeDetectionStateContract(store: () => Store): void {
  describe('detection state', () => {
    beforeEach(async () => {
      await store().tenants.ensure('acme', t);
      await store().tenants.ensure('globex', t);
    });

    it('lists Active and Staging rules of every tenant, by override or synced state, with their sinks', async () => {
      const sink = aSink('acme');
      await store().sinks.insert(sink);
      const active = aRule('acme', { eventSinkIds: [sink.id], createdAt: t });
      const staging = aRule('globex', { enabledStateOverride: 'Staging', createdAt: t + 1 });
      const synced = aRule('acme', { enabledStateOverride: null, enabledStateSynced: 'Active', createdAt: t + 2 });
      const paused = aRule('acme', { enabledStateOverride: 'Paused', createdAt: t + 3 });
      const overridden = aRule('acme', { enabledStateOverride: 'Paused', enabledStateSynced: 'Active', createdAt: t + 4 });
      for (const rule of [active, staging, synced, paused, overridden]) await store().rules.insert(rule);
      const scheduled = await store().detectionState.listScheduled();
      expect(scheduled.map((s) => s.rule.id)).toEqual([active.id, staging.id, synced.id]);
      expect(scheduled[0]).toEqual({ rule: active, state: null });
    });

    it('advances the cursor only from the cursor the run started from', async () => {
      const rule = aRule('acme');
      await store().rules.insert(rule);
      const state = store().detectionState;
      expect(await state.commitWindow(aCommit('acme', rule.id, t, 5))).toBe(false);
      expect(await state.getState(rule.id)).toBeNull();
      expect(await state.commitWindow(aCommit('acme', rule.id, t, null))).toBe(true);
      expect(await state.commitWindow(aCommit('acme', rule.id, t + minute, null))).toBe(false);
      expect(await state.commitWindow(aCommit('acme', rule.id, t + minute, t))).toBe(true);
      expect(await state.getState(rule.id)).toMatchObject({ ruleId: rule.id, tenantId: 'acme', cursorMs: t + minute, lastRunAt: t + minute + 30_000, consecutiveFailures: 0 });
    });

    it('writes the alerts, their outbox rows and last_alerted_at with the cursor, or nothing', async () => {
      const sink = aSink('acme');
      await store().sinks.insert(sink);
      const rule = aRule('acme', { eventSinkIds: [sink.id] });
      await store().rules.insert(rule);
      const alert = anAlert('acme', rule.id);
      const commit = aCommit('acme', rule.id, t, null, { alerts: [{ alert, deliveries: [aDelivery(alert, sink.id)] }], lastAlertedAtMs: t + 30_000 });
      expect(await store().detectionState.commitWindow({ ...commit, expectedCursorMs: 1 })).toBe(false);
      expect(await store().alerts.get('acme', alert.id)).toBeNull();
      expect(await store().detectionState.commitWindow(commit)).toBe(true);
      expect(await store().alerts.get('acme', alert.id)).toEqual(alert);
      expect(await store().alerts.pendingCount()).toBe(1);
      expect((await store().rules.get('acme', rule.id))?.lastAlertedAt).toBe(t + 30_000);
    });

    it('remembers alerted identities with their window end and forgets those that can no longer overlap', async () => {
      const rule = aRule('acme');
      await store().rules.insert(rule);
      const state = store().detectionState;
      await state.commitWindow(aCommit('acme', rule.id, t, null, { identities: ['a', 'b'] }));
      await state.commitWindow(aCommit('acme', rule.id, t + minute, t, { identities: ['b', 'c'] }));
      expect([...(await state.alertedIdentities(rule.id, t - 1))].sort()).toEqual(['a', 'b', 'c']);
      expect([...(await state.alertedIdentities(rule.id, t))].sort()).toEqual(['b', 'c']);
      await state.commitWindow(aCommit('acme', rule.id, t + 2 * minute, t + minute, { forgetIdentitiesUpToMs: t + minute }));
      expect([...(await state.alertedIdentities(rule.id, 0))]).toEqual([]);
    });

    it('remembers when each dedup key was last sent', async () => {
      const rule = aRule('acme');
      await store().rules.insert(rule);
      const state = store().detectionState;
      await state.commitWindow(aCommit('acme', rule.id, t, null, { sentDedupKeys: ['k1', 'k2', 'k1'] }));
      await state.commitWindow(aCommit('acme', rule.id, t + minute, t, { sentDedupKeys: ['k2'] }));
      expect(await state.lastSent(rule.id, ['k1', 'k2', 'k3'])).toEqual(
        new Map([
          ['k1', t],
          ['k2', t + minute],
        ]),
      );
      const many = Array.from({ length: 1000 }, (_, i) => `key-${i}`);
      expect((await state.lastSent(rule.id, many)).size).toBe(0);
    });

    it('records failures, gaps and cursor resets', async () => {
      const rule = aRule('acme');
      await store().rules.insert(rule);
      const state = store().detectionState;
      await state.recordFailure('acme', rule.id, 'engine down', t);
      await state.recordFailure('acme', rule.id, 'engine still down', t + 1);
      expect(await state.getState(rule.id)).toMatchObject({ cursorMs: null, lastError: 'engine still down', lastErrorAt: t + 1, consecutiveFailures: 2 });
      expect(await state.recordGap('acme', rule.id, 7, t, t + 10 * minute, 10)).toBe(false);
      expect(await state.recordGap('acme', rule.id, null, t, t + 10 * minute, 10)).toBe(true);
      expect(await state.getState(rule.id)).toMatchObject({ cursorMs: t + 10 * minute, gapStartMs: t, gapEndMs: t + 10 * minute, skippedWindows: 10 });
      await state.commitWindow(aCommit('acme', rule.id, t + 11 * minute, t + 10 * minute));
      expect(await state.getState(rule.id)).toMatchObject({ cursorMs: t + 11 * minute, lastError: null, consecutiveFailures: 0, skippedWindows: 10 });
      await state.resetCursor('acme', rule.id);
      expect((await state.getState(rule.id))?.cursorMs).toBeNull();
      await state.recordFailure('acme', 'no-such-rule', 'x', t);
      expect(await state.getState('no-such-rule')).toBeNull();
    });

    it("queues a window's detections with its cursor, and forgets them once shipped", async () => {
      const rule = aRule('acme');
      await store().rules.insert(rule);
      const state = store().detectionState;
      const detection = (id: string, at: number) => ({ id, tenantId: 'acme', at, event: { id, name: 'x', results_table: { rows: [{ 'a.b': 1 }] } } });
      expect(await state.commitWindow(aCommit('acme', rule.id, t, 9, { detections: [detection('d0', t)] }))).toBe(false);
      await state.commitWindow(aCommit('acme', rule.id, t, null, { detections: [detection('d2', t + 2), detection('d1', t + 1)] }));
      expect(await state.unshippedDetections(10)).toEqual([detection('d1', t + 1), detection('d2', t + 2)]);
      expect(await state.unshippedDetections(1)).toEqual([detection('d1', t + 1)]);
      await state.markDetectionsShipped(['d1', 'nope']);
      expect((await state.unshippedDetections(10)).map((d) => d.id)).toEqual(['d2']);
    });

    it('deleting a rule drops its state and memory but keeps its alerts', async () => {
      const rule = aRule('acme');
      await store().rules.insert(rule);
      const alert = anAlert('acme', rule.id, { status: 'no_sinks' });
      await store().detectionState.commitWindow(aCommit('acme', rule.id, t, null, { identities: ['a'], sentDedupKeys: ['k'], alerts: [{ alert, deliveries: [] }] }));
      await store().rules.delete('acme', rule.id);
      expect(await store().detectionState.getState(rule.id)).toBeNull();
      expect(await store().detectionState.alertedIdentities(rule.id, 0)).toEqual(new Set());
      expect(await store().alerts.get('acme', alert.id)).toEqual(alert);
      expect(await store().detectionState.commitWindow(aCommit('acme', rule.id, t + minute, t))).toBe(false);
    });
  });
}
