import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../core/index.js';
import type { Store } from '../store.js';
import { anApiKey } from './store-fixtures.js';

const minute = 60_000;

/** API keys: lookup by hash, revocation, listing and throttled use records. */
export function describeApiKeyContract(store: () => Store): void {
  describe('api keys', () => {
    it('insert then get and findActiveByHash return the key as given', async () => {
      const key = anApiKey({ tenants: ['acme', 'globex'], lastUsedAt: 5 });
      const admin = anApiKey({ tenants: ['*'] });
      await store().apiKeys.insert(key);
      await store().apiKeys.insert(admin);
      expect(await store().apiKeys.get(key.id)).toEqual(key);
      expect(await store().apiKeys.findActiveByHash(key.keyHash)).toEqual(key);
      expect(await store().apiKeys.findActiveByHash(admin.keyHash)).toEqual(admin);
    });

    it('unknown ids and hashes answer null', async () => {
      await store().apiKeys.insert(anApiKey());
      expect(await store().apiKeys.get('no-such-key')).toBeNull();
      expect(await store().apiKeys.findActiveByHash('no-such-hash')).toBeNull();
    });

    it('a second key with the same hash conflicts', async () => {
      const key = anApiKey();
      await store().apiKeys.insert(key);
      await expect(store().apiKeys.insert(anApiKey({ keyHash: key.keyHash }))).rejects.toThrow(ConflictError);
    });

    it('a revoked key is not found by hash but still read by id', async () => {
      const key = anApiKey();
      await store().apiKeys.insert(key);
      expect(await store().apiKeys.revoke(key.id, 7000)).toBe(true);
      expect(await store().apiKeys.findActiveByHash(key.keyHash)).toBeNull();
      expect(await store().apiKeys.get(key.id)).toEqual({ ...key, revokedAt: 7000 });
    });

    it('revoke answers false for a revoked or unknown key and keeps the first revocation time', async () => {
      const key = anApiKey();
      await store().apiKeys.insert(key);
      await store().apiKeys.revoke(key.id, 7000);
      expect(await store().apiKeys.revoke(key.id, 8000)).toBe(false);
      expect(await store().apiKeys.revoke('no-such-key', 8000)).toBe(false);
      expect((await store().apiKeys.get(key.id))?.revokedAt).toBe(7000);
    });

    it('list returns every key, revoked ones included, oldest first', async () => {
      const middle = anApiKey({ createdAt: 2000 });
      const oldest = anApiKey({ createdAt: 1000 });
      const newest = anApiKey({ createdAt: 3000 });
      for (const key of [middle, newest, oldest]) await store().apiKeys.insert(key);
      await store().apiKeys.revoke(middle.id, 4000);
      expect((await store().apiKeys.list()).map((k) => k.id)).toEqual([oldest.id, middle.id, newest.id]);
    });

    it('anyActive is true only while a live key exists', async () => {
      expect(await store().apiKeys.anyActive()).toBe(false);
      const key = anApiKey();
      await store().apiKeys.insert(key);
      expect(await store().apiKeys.anyActive()).toBe(true);
      await store().apiKeys.revoke(key.id, 1);
      expect(await store().apiKeys.anyActive()).toBe(false);
    });

    it('touch records use at most once a minute', async () => {
      const key = anApiKey();
      await store().apiKeys.insert(key);
      const t0 = 1_700_000_000_000;
      await store().apiKeys.touch(key.id, t0);
      expect((await store().apiKeys.get(key.id))?.lastUsedAt).toBe(t0);
      await store().apiKeys.touch(key.id, t0 + 30_000);
      await store().apiKeys.touch(key.id, t0 + minute - 1);
      expect((await store().apiKeys.get(key.id))?.lastUsedAt).toBe(t0);
      await store().apiKeys.touch(key.id, t0 + minute);
      expect((await store().apiKeys.get(key.id))?.lastUsedAt).toBe(t0 + minute);
    });

    it('touch respects a use recorded before it, and never moves back', async () => {
      const t0 = 1_700_000_000_000;
      const key = anApiKey({ lastUsedAt: t0 });
      await store().apiKeys.insert(key);
      await store().apiKeys.touch(key.id, t0 + 10_000);
      await store().apiKeys.touch(key.id, t0 - 5 * minute);
      expect((await store().apiKeys.get(key.id))?.lastUsedAt).toBe(t0);
    });

    it('touch of an unknown key does nothing', async () => {
      await expect(store().apiKeys.touch('no-such-key', 1)).resolves.toBeUndefined();
      expect(await store().apiKeys.list()).toEqual([]);
    });
  });
}
