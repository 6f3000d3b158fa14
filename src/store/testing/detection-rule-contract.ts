import { beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../core/index.js';
import type { Store } from '../store.js';
import { aRule, aSink } from './store-fixtures.js';

/** Detection rules: round trips, sink links kept within the tenant, updates, deletion, isolation. */
export function describeDetectionRuleContract(store: () => Store): void {
  describe('detection rules', () => {
    beforeEach(async () => {
      await store().tenants.ensure('acme', 0);
      await store().tenants.ensure('globex', 0);
    });

    const sinks = async (tenantId: string, count: number): Promise<string[]> => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const sink = aSink(tenantId);
        await store().sinks.insert(sink);
        ids.push(sink.id);
      }
      return ids;
    };

    it('insert then get, getAnyTenant and getBySyncKey return the rule as given, sinks in order', async () => {
      const [a, b, c] = await sinks('acme', 3);
      const full = aRule('acme', { eventSinkIds: [c ?? '', a ?? '', b ?? ''], syncKey: 'rules/admin.yml', lastAlertedAt: 1_700_000_100_000 });
      const bare = aRule('acme', { alertTemplate: null, tags: [], dedupWindowS: null, authorUserId: null, debounce: false, alertPerRow: false, severity: 'Unknown' });
      await store().rules.insert(full);
      await store().rules.insert(bare);
      expect(await store().rules.get('acme', full.id)).toEqual(full);
      expect(await store().rules.getAnyTenant(full.id)).toEqual(full);
      expect(await store().rules.getBySyncKey('acme', 'rules/admin.yml')).toEqual(full);
      expect(await store().rules.get('acme', bare.id)).toEqual(bare);
      expect(await store().rules.getBySyncKey('acme', 'other')).toBeNull();
    });

    it("listBySyncKeyAnyTenant finds each tenant's rule with the key, oldest first", async () => {
      const acmeRule = aRule('acme', { syncKey: 'shared.yml', createdAt: 2 });
      const globexRule = aRule('globex', { syncKey: 'shared.yml', createdAt: 1 });
      await store().rules.insert(acmeRule);
      await store().rules.insert(globexRule);
      await store().rules.insert(aRule('acme', { syncKey: 'other.yml' }));
      expect(await store().rules.listBySyncKeyAnyTenant('shared.yml')).toEqual([globexRule, acmeRule]);
      expect(await store().rules.listBySyncKeyAnyTenant('none.yml')).toEqual([]);
    });

    it('keeps synced rules: sync id and both states', async () => {
      const synced = aRule('acme', { detectionRuleSyncId: 'sync-1', enabledStateSynced: 'Staging', enabledStateOverride: null });
      await store().rules.insert(synced);
      expect(await store().rules.get('acme', synced.id)).toEqual(synced);
    });

    it('refuses sinks of another tenant, unknown sinks and repeated sinks, leaving nothing behind', async () => {
      const [theirs] = await sinks('globex', 1);
      const [ours] = await sinks('acme', 1);
      for (const eventSinkIds of [[ours ?? '', theirs ?? ''], ['no-such-sink'], [ours ?? '', ours ?? '']]) {
        const rule = aRule('acme', { eventSinkIds });
        const insert = store().rules.insert(rule);
        await expect(insert).rejects.toThrow(ValidationError);
        await expect(insert).rejects.toMatchObject({ field: expect.stringMatching(/^event_sink_ids\[\d\]$/) });
        expect(await store().rules.get('acme', rule.id)).toBeNull();
      }
    });

    it('a sync key names one rule per tenant', async () => {
      await store().rules.insert(aRule('acme', { syncKey: 'k' }));
      await expect(store().rules.insert(aRule('acme', { syncKey: 'k' }))).rejects.toThrow(ConflictError);
      await expect(store().rules.insert(aRule('globex', { syncKey: 'k' }))).resolves.toBeUndefined();
    });

    it('inserting for an unknown tenant raises NotFoundError', async () => {
      await expect(store().rules.insert(aRule('nobody'))).rejects.toThrow(NotFoundError);
    });

    it('update changes only the given fields, replaces the sinks, and stamps updatedAt', async () => {
      const [a, b] = await sinks('acme', 2);
      const rule = aRule('acme', { eventSinkIds: [a ?? ''] });
      await store().rules.insert(rule);
      const changes = {
        name: 'renamed',
        timeRangeS: 600,
        debounce: false,
        enabledStateOverride: 'Paused' as const,
        alertTemplate: null,
        tags: ['x'],
        eventSinkIds: [b ?? '', a ?? ''],
        dedupWindowS: null,
      };
      const updated = await store().rules.update('acme', rule.id, changes, 5000);
      expect(updated).toEqual({ ...rule, ...changes, updatedAt: 5000 });
      expect(await store().rules.get('acme', rule.id)).toEqual(updated);
      expect(await store().rules.update('acme', rule.id, { eventSinkIds: [] }, 6000)).toEqual({ ...updated, eventSinkIds: [], updatedAt: 6000 });
    });

    it('update without changes writes nothing; an invalid sink list changes nothing', async () => {
      const [theirs] = await sinks('globex', 1);
      const rule = aRule('acme');
      await store().rules.insert(rule);
      expect(await store().rules.update('acme', rule.id, {}, 5000)).toEqual(rule);
      await expect(store().rules.update('acme', rule.id, { name: 'x', eventSinkIds: [theirs ?? ''] }, 5000)).rejects.toThrow(ValidationError);
      expect(await store().rules.get('acme', rule.id)).toEqual(rule);
    });

    it('another tenant never sees a rule by id, sync key, in lists, or through writes', async () => {
      const rule = aRule('acme', { syncKey: 's' });
      await store().rules.insert(rule);
      expect(await store().rules.get('globex', rule.id)).toBeNull();
      expect(await store().rules.getBySyncKey('globex', 's')).toBeNull();
      expect((await store().rules.list('globex', { pageSize: 10 })).items).toEqual([]);
      expect(await store().rules.update('globex', rule.id, { name: 'taken' }, 5)).toBeNull();
      expect(await store().rules.markAlerted('globex', rule.id, 5)).toBe(false);
      expect(await store().rules.delete('globex', rule.id)).toBe(false);
      expect(await store().rules.get('acme', rule.id)).toEqual(rule);
    });

    it('delete removes the rule and its links; the sinks stay', async () => {
      const [a] = await sinks('acme', 1);
      const rule = aRule('acme', { eventSinkIds: [a ?? ''] });
      await store().rules.insert(rule);
      expect(await store().rules.delete('acme', rule.id)).toBe(true);
      expect(await store().rules.get('acme', rule.id)).toBeNull();
      expect(await store().rules.delete('acme', rule.id)).toBe(false);
      expect(await store().rules.listUsingSink('acme', a ?? '')).toEqual([]);
      expect(await store().sinks.get('acme', a ?? '')).not.toBeNull();
    });

    it('markAlerted records the alert time and nothing else', async () => {
      const rule = aRule('acme');
      await store().rules.insert(rule);
      expect(await store().rules.markAlerted('acme', rule.id, 7000)).toBe(true);
      expect(await store().rules.get('acme', rule.id)).toEqual({ ...rule, lastAlertedAt: 7000 });
      expect(await store().rules.markAlerted('acme', 'no-such-rule', 7000)).toBe(false);
    });

    it('list returns summaries in creation order, without sink ids', async () => {
      const [a] = await sinks('acme', 1);
      const late = aRule('acme', { createdAt: 3000, eventSinkIds: [a ?? ''] });
      const early = aRule('acme', { createdAt: 1000 });
      await store().rules.insert(late);
      await store().rules.insert(early);
      const page = await store().rules.list('acme', { pageSize: 10 });
      const { eventSinkIds: _dropped, ...lateSummary } = late;
      const { eventSinkIds: _none, ...earlySummary } = early;
      expect(page).toEqual({ items: [earlySummary, lateSummary], nextPageToken: null });
    });
  });
}
