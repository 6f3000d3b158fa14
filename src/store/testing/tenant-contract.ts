import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../core/index.js';
import type { Store } from '../store.js';

/** Checks a list of [first, count] reservations tiles 1..n with no gap and no overlap. */
export function expectConsecutiveRanges(ranges: readonly (readonly [first: bigint, count: number])[]): void {
  const sorted = [...ranges].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let next = 1n;
  for (const [first, count] of sorted) {
    expect(first).toBe(next);
    next = first + BigInt(count);
  }
}

/** Tenants: ensure, get, list, and sequence reservation. */
export function describeTenantContract(store: () => Store): void {
  describe('tenants', () => {
    it('ensure creates a tenant once and keeps its first creation time', async () => {
      expect(await store().tenants.ensure('acme', 1000)).toEqual({ tenant: { id: 'acme', name: 'acme', createdAt: 1000 }, created: true });
      expect(await store().tenants.ensure('acme', 2000)).toEqual({ tenant: { id: 'acme', name: 'acme', createdAt: 1000 }, created: false });
      expect(await store().tenants.get('acme')).toEqual({ id: 'acme', name: 'acme', createdAt: 1000 });
    });

    it('ensure called concurrently creates the tenant exactly once', async () => {
      const results = await Promise.all([1, 2, 3, 4].map((at) => store().tenants.ensure('acme', at)));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.tenant.createdAt)).size).toBe(1);
    });

    it('finds a tenant by its name: its id unless it was given another, and refuses a name taken', async () => {
      await store().tenants.ensure('acme', 1);
      await store().tenants.ensure('5b2c1f3e-0d4a-4f6b-9a51-3c7e2d8f1a90', 2, 'default');
      expect(await store().tenants.getByName('acme')).toEqual({ id: 'acme', name: 'acme', createdAt: 1 });
      expect(await store().tenants.getByName('default')).toEqual({ id: '5b2c1f3e-0d4a-4f6b-9a51-3c7e2d8f1a90', name: 'default', createdAt: 2 });
      expect(await store().tenants.getByName('5b2c1f3e-0d4a-4f6b-9a51-3c7e2d8f1a90')).toBeNull();
      await expect(store().tenants.ensure('other', 3, 'default')).rejects.toThrow(ConflictError);
      expect(await store().tenants.get('other')).toBeNull();
    });

    it('get answers null for an unknown tenant', async () => {
      expect(await store().tenants.get('nobody')).toBeNull();
    });

    it('list returns every tenant ordered by id', async () => {
      for (const id of ['globex', 'acme', 'initech']) await store().tenants.ensure(id, 5);
      expect((await store().tenants.list()).map((t) => t.id)).toEqual(['acme', 'globex', 'initech']);
    });

    it('reserveSequence starts at 1 and hands out consecutive ranges', async () => {
      await store().tenants.ensure('acme', 0);
      expect(await store().tenants.reserveSequence('acme', 5)).toBe(1n);
      expect(await store().tenants.reserveSequence('acme', 3)).toBe(6n);
      expect(await store().tenants.reserveSequence('acme', 1)).toBe(9n);
    });

    it('reserveSequence counts each tenant separately', async () => {
      await store().tenants.ensure('acme', 0);
      await store().tenants.ensure('globex', 0);
      await store().tenants.reserveSequence('acme', 100);
      expect(await store().tenants.reserveSequence('globex', 2)).toBe(1n);
      expect(await store().tenants.reserveSequence('acme', 2)).toBe(101n);
    });

    it('reserveSequence ranges stay disjoint and consecutive when requested concurrently', async () => {
      await store().tenants.ensure('acme', 0);
      const counts = [3, 1, 7, 2, 9, 4, 1, 1, 5, 8, 2, 6];
      const firsts = await Promise.all(counts.map((count) => store().tenants.reserveSequence('acme', count)));
      expectConsecutiveRanges(firsts.map((first, i) => [first, counts[i] ?? 0] as const));
    });

    it('reserveSequence is exact past 2^53', async () => {
      await store().tenants.ensure('acme', 0);
      const max = Number.MAX_SAFE_INTEGER; // 2^53 - 1
      expect(await store().tenants.reserveSequence('acme', max)).toBe(1n);
      expect(await store().tenants.reserveSequence('acme', max)).toBe(2n ** 53n);
      expect(await store().tenants.reserveSequence('acme', 1)).toBe(2n ** 54n - 1n);
      expect(await store().tenants.reserveSequence('acme', 1)).toBe(2n ** 54n);
    });

    it('reserveSequence of an unknown tenant raises NotFoundError', async () => {
      await expect(store().tenants.reserveSequence('nobody', 1)).rejects.toThrow(NotFoundError);
    });

    it.each([0, -1, 1.5, Number.NaN, 2 ** 53])('reserveSequence rejects the count %s', async (count) => {
      await store().tenants.ensure('acme', 0);
      await expect(store().tenants.reserveSequence('acme', count)).rejects.toThrow(ValidationError);
      expect(await store().tenants.reserveSequence('acme', 1)).toBe(1n);
    });
  });
}
