import { beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../core/index.js';
import type { Store } from '../store.js';
import { aChatIntegration, aRule, aSink } from './store-fixtures.js';

/** Event sinks and chat integrations: round trips, tenancy of integrations, deletion detaching rules. */
export function describeEventSinkContract(store: () => Store): void {
  describe('event sinks', () => {
    beforeEach(async () => {
      await store().tenants.ensure('acme', 0);
      await store().tenants.ensure('globex', 0);
    });

    it('insert then get and getAnyTenant return the sink as given', async () => {
      const webhook = aSink('acme');
      const pager = aSink('acme', { type: 'Pager', config: { integration_key: '****abcd' }, sealedSecrets: 'v1.x', description: '' });
      await store().sinks.insert(webhook);
      await store().sinks.insert(pager);
      expect(await store().sinks.get('acme', webhook.id)).toEqual(webhook);
      expect(await store().sinks.getAnyTenant(pager.id)).toEqual(pager);
      expect(await store().sinks.get('globex', webhook.id)).toBeNull();
    });

    it('a chat sink names an integration of its own tenant', async () => {
      const ours = aChatIntegration('acme');
      const theirs = aChatIntegration('globex');
      await store().chatIntegrations.insert(ours);
      await store().chatIntegrations.insert(theirs);
      const chat = aSink('acme', { type: 'Chat', config: { channel_id: 'C1' }, sealedSecrets: null, chatIntegrationId: ours.id });
      await store().sinks.insert(chat);
      expect(await store().sinks.get('acme', chat.id)).toEqual(chat);
      const foreign = store().sinks.insert(aSink('acme', { type: 'Chat', chatIntegrationId: theirs.id }));
      await expect(foreign).rejects.toThrow(ValidationError);
      await expect(foreign).rejects.toMatchObject({ field: 'chat_integration_id' });
      await expect(store().sinks.update('acme', chat.id, { chatIntegrationId: theirs.id }, 5)).rejects.toThrow(ValidationError);
    });

    it('inserting for an unknown tenant raises NotFoundError', async () => {
      await expect(store().sinks.insert(aSink('nobody'))).rejects.toThrow(NotFoundError);
    });

    it('update changes only the given fields and stamps updatedAt; no fields, no write', async () => {
      const sink = aSink('acme');
      await store().sinks.insert(sink);
      expect(await store().sinks.update('acme', sink.id, {}, 5000)).toEqual(sink);
      const changes = { name: 'pager', type: 'Pager' as const, config: { integration_key: '****wxyz' }, sealedSecrets: null };
      const updated = await store().sinks.update('acme', sink.id, changes, 5000);
      expect(updated).toEqual({ ...sink, ...changes, updatedAt: 5000 });
      expect(await store().sinks.get('acme', sink.id)).toEqual(updated);
      expect(await store().sinks.update('globex', sink.id, { name: 'taken' }, 6000)).toBeNull();
    });

    it('existing answers which ids are sinks of the tenant', async () => {
      const a = aSink('acme');
      const b = aSink('globex');
      await store().sinks.insert(a);
      await store().sinks.insert(b);
      expect(await store().sinks.existing('acme', [a.id, b.id, 'nope', a.id])).toEqual(new Set([a.id]));
      expect(await store().sinks.existing('acme', [])).toEqual(new Set());
    });

    it('delete detaches the sink from every rule of the tenant that used it, in one go', async () => {
      const gone = aSink('acme');
      const kept = aSink('acme');
      await store().sinks.insert(gone);
      await store().sinks.insert(kept);
      const both = aRule('acme', { eventSinkIds: [gone.id, kept.id] });
      const onlyGone = aRule('acme', { eventSinkIds: [gone.id] });
      const untouched = aRule('acme', { eventSinkIds: [kept.id] });
      for (const rule of [both, onlyGone, untouched]) await store().rules.insert(rule);

      expect(await store().sinks.delete('globex', gone.id, 9000)).toBeNull();
      const result = await store().sinks.delete('acme', gone.id, 9000);
      expect(result?.detachedRuleIds.sort()).toEqual([both.id, onlyGone.id].sort());
      expect(await store().sinks.get('acme', gone.id)).toBeNull();
      expect(await store().rules.get('acme', both.id)).toEqual({ ...both, eventSinkIds: [kept.id], updatedAt: 9000 });
      expect(await store().rules.get('acme', onlyGone.id)).toEqual({ ...onlyGone, eventSinkIds: [], updatedAt: 9000 });
      expect(await store().rules.get('acme', untouched.id)).toEqual(untouched);
      expect(await store().sinks.delete('acme', gone.id, 9500)).toBeNull();
    });

    it('a sink deleted between the check and the link never ends up linked', async () => {
      const sink = aSink('acme');
      await store().sinks.insert(sink);
      const rules = Array.from({ length: 10 }, () => aRule('acme', { eventSinkIds: [sink.id] }));
      const outcomes = await Promise.allSettled([...rules.map((r) => store().rules.insert(r)), store().sinks.delete('acme', sink.id, 1)]);
      for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(ValidationError);
      for (const rule of rules) {
        const stored = await store().rules.get('acme', rule.id);
        if (stored) expect(stored.eventSinkIds).toEqual([]);
      }
    });
  });

  describe('chat integrations', () => {
    beforeEach(async () => {
      await store().tenants.ensure('acme', 0);
      await store().tenants.ensure('globex', 0);
    });

    it('insert, get, list by tenant or all, oldest first', async () => {
      const a = aChatIntegration('acme', { createdAt: 2, apiUrl: 'https://chat.example.com/api' });
      const b = aChatIntegration('globex', { createdAt: 1 });
      await store().chatIntegrations.insert(a);
      await store().chatIntegrations.insert(b);
      expect(await store().chatIntegrations.get('acme', a.id)).toEqual(a);
      expect(await store().chatIntegrations.get('globex', a.id)).toBeNull();
      expect(await store().chatIntegrations.list('acme')).toEqual([a]);
      expect(await store().chatIntegrations.list()).toEqual([b, a]);
      await expect(store().chatIntegrations.insert(aChatIntegration('nobody'))).rejects.toThrow(NotFoundError);
    });

    it('delete refuses while a sink posts through the integration', async () => {
      const integration = aChatIntegration('acme');
      await store().chatIntegrations.insert(integration);
      const sink = aSink('acme', { type: 'Chat', chatIntegrationId: integration.id });
      await store().sinks.insert(sink);
      await expect(store().chatIntegrations.delete('acme', integration.id)).rejects.toThrow(ConflictError);
      await store().sinks.delete('acme', sink.id, 1);
      expect(await store().chatIntegrations.delete('globex', integration.id)).toBe(false);
      expect(await store().chatIntegrations.delete('acme', integration.id)).toBe(true);
      expect(await store().chatIntegrations.list()).toEqual([]);
    });
  });
}
