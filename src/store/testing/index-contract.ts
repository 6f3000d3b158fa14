import { beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../../core/index.js';
import type { Store } from '../store.js';
import { anIndex } from './store-fixtures.js';

/** Indexes: round trips, live-name uniqueness, soft deletion, updates and tenant isolation. */
export function describeIndexContract(store: () => Store): void {
  describe('indexes', () => {
    beforeEach(async () => {
      await store().tenants.ensure('acme', 0);
      await store().tenants.ensure('globex', 0);
    });

    it('insert then get, getByName and getAnyTenant return the index as given', async () => {
      const full = anIndex('acme', 'web');
      const bare = anIndex('acme', 'bare', { description: '', retentionDays: null, timestampFields: null, sourceType: null });
      await store().indexes.insert(full);
      await store().indexes.insert(bare);
      expect(await store().indexes.get('acme', full.id)).toEqual(full);
      expect(await store().indexes.getByName('acme', 'web')).toEqual(full);
      expect(await store().indexes.getAnyTenant(full.id)).toEqual(full);
      expect(await store().indexes.get('acme', bare.id)).toEqual(bare);
    });

    it('a live duplicate name conflicts within a tenant only', async () => {
      await store().indexes.insert(anIndex('acme', 'web'));
      const duplicate = store().indexes.insert(anIndex('acme', 'web'));
      await expect(duplicate).rejects.toThrow(ConflictError);
      await expect(duplicate).rejects.toThrow('index "web" already exists');
      await expect(store().indexes.insert(anIndex('globex', 'web'))).resolves.toBeUndefined();
    });

    it('inserting for an unknown tenant raises NotFoundError', async () => {
      await expect(store().indexes.insert(anIndex('nobody', 'web'))).rejects.toThrow(NotFoundError);
    });

    it('another tenant never sees an index by id, by name, in lists, or through writes', async () => {
      const index = anIndex('acme', 'web');
      await store().indexes.insert(index);
      expect(await store().indexes.get('globex', index.id)).toBeNull();
      expect(await store().indexes.getByName('globex', 'web')).toBeNull();
      expect((await store().indexes.list('globex', { pageSize: 10 })).items).toEqual([]);
      expect(await store().indexes.update('globex', index.id, { description: 'taken' }, 5)).toBeNull();
      expect(await store().indexes.markDeleted('globex', index.id, 5)).toBe(false);
      expect(await store().indexes.get('acme', index.id)).toEqual(index);
    });

    it('a deleted index disappears from reads and lists, and its name is free at once', async () => {
      const old = anIndex('acme', 'web');
      await store().indexes.insert(old);
      expect(await store().indexes.markDeleted('acme', old.id, 9000)).toBe(true);
      expect(await store().indexes.get('acme', old.id)).toBeNull();
      expect(await store().indexes.getByName('acme', 'web')).toBeNull();
      expect(await store().indexes.getAnyTenant(old.id)).toBeNull();
      expect((await store().indexes.list('acme', { pageSize: 10 })).items).toEqual([]);
      expect(await store().indexes.listAllLive()).toEqual([]);
      expect(await store().indexes.markDeleted('acme', old.id, 9500)).toBe(false);

      const reborn = anIndex('acme', 'web');
      await store().indexes.insert(reborn);
      expect(await store().indexes.getByName('acme', 'web')).toEqual(reborn);
      expect(await store().indexes.listDeleted()).toEqual([{ ...old, deletedAt: 9000 }]);
    });

    it('listDeleted returns deleted indexes of every tenant, oldest deletion first', async () => {
      const a = anIndex('acme', 'a');
      const b = anIndex('globex', 'b');
      const live = anIndex('acme', 'live');
      for (const index of [a, b, live]) await store().indexes.insert(index);
      await store().indexes.markDeleted('globex', b.id, 200);
      await store().indexes.markDeleted('acme', a.id, 300);
      expect((await store().indexes.listDeleted()).map((i) => i.id)).toEqual([b.id, a.id]);
    });

    it('purge removes a deleted index and leaves a live one alone', async () => {
      const gone = anIndex('acme', 'gone');
      const live = anIndex('acme', 'live');
      await store().indexes.insert(gone);
      await store().indexes.insert(live);
      await store().indexes.markDeleted('acme', gone.id, 10);
      await store().indexes.purge(gone.id);
      await store().indexes.purge(live.id);
      await store().indexes.purge('no-such-index');
      expect(await store().indexes.listDeleted()).toEqual([]);
      expect(await store().indexes.get('acme', live.id)).toEqual(live);
    });

    it('listAllLive returns live indexes of every tenant', async () => {
      const indexes = [anIndex('globex', 'x'), anIndex('acme', 'b'), anIndex('acme', 'a', { kind: 'system' })];
      for (const index of indexes) await store().indexes.insert(index);
      const deleted = anIndex('acme', 'c');
      await store().indexes.insert(deleted);
      await store().indexes.markDeleted('acme', deleted.id, 1);
      const all = await store().indexes.listAllLive();
      expect(all.map((i) => `${i.tenantId}/${i.name}`).sort()).toEqual(['acme/a', 'acme/b', 'globex/x']);
    });

    it('update changes only the given fields and stamps updatedAt', async () => {
      const index = anIndex('acme', 'web');
      await store().indexes.insert(index);
      const updated = await store().indexes.update('acme', index.id, { retentionDays: 7, description: undefined }, 5000);
      expect(updated).toEqual({ ...index, retentionDays: 7, updatedAt: 5000 });
      expect(await store().indexes.get('acme', index.id)).toEqual(updated);
    });

    it('update with null clears nullable settings', async () => {
      const index = anIndex('acme', 'web');
      await store().indexes.insert(index);
      const changes = { retentionDays: null, timestampFields: null, sourceType: null, description: '' };
      expect(await store().indexes.update('acme', index.id, changes, 5000)).toEqual({ ...index, ...changes, updatedAt: 5000 });
      const restored = { timestampFields: ['time'], sourceType: 'custom:app' };
      expect(await store().indexes.update('acme', index.id, restored, 6000)).toMatchObject({ ...restored, updatedAt: 6000 });
    });

    it('update without changes writes nothing and returns the index', async () => {
      const index = anIndex('acme', 'web');
      await store().indexes.insert(index);
      expect(await store().indexes.update('acme', index.id, {}, 5000)).toEqual(index);
    });

    it('update answers null for a deleted or unknown index', async () => {
      const index = anIndex('acme', 'web');
      await store().indexes.insert(index);
      await store().indexes.markDeleted('acme', index.id, 10);
      expect(await store().indexes.update('acme', index.id, { retentionDays: 1 }, 20)).toBeNull();
      expect(await store().indexes.update('acme', index.id, {}, 20)).toBeNull();
      expect(await store().indexes.update('acme', 'no-such-index', { retentionDays: 1 }, 20)).toBeNull();
    });

    it('list filters by kind when asked, and lists every kind otherwise', async () => {
      await store().indexes.insert(anIndex('acme', 'web'));
      await store().indexes.insert(anIndex('acme', '_audit', { kind: 'system' }));
      const names = async (kind?: 'user' | 'system') => (await store().indexes.list('acme', { pageSize: 10, ...(kind ? { kind } : {}) })).items.map((i) => i.name);
      expect(await names('user')).toEqual(['web']);
      expect(await names('system')).toEqual(['_audit']);
      expect(await names()).toEqual(['_audit', 'web']);
    });
  });
}
