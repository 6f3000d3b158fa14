import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../core/index.js';
import { encodePageToken } from '../page-token.js';
import type { Page } from '../records.js';
import type { PageOptions, Store } from '../store.js';
import { aRule, aSink } from './store-fixtures.js';

interface Listed {
  readonly label: string;
  insert(store: Store, tenantId: string, createdAt: number): Promise<string>;
  remove(store: Store, tenantId: string, id: string): Promise<void>;
  list(store: Store, tenantId: string, options: PageOptions): Promise<Page<{ id: string }>>;
}

const listings: readonly Listed[] = [
  {
    label: 'detection rules',
    async insert(store, tenantId, createdAt) {
      const rule = aRule(tenantId, { createdAt, updatedAt: createdAt });
      await store.rules.insert(rule);
      return rule.id;
    },
    remove: async (store, tenantId, id) => void (await store.rules.delete(tenantId, id)),
    list: (store, tenantId, options) => store.rules.list(tenantId, options),
  },
  {
    label: 'event sinks',
    async insert(store, tenantId, createdAt) {
      const sink = aSink(tenantId, { createdAt, updatedAt: createdAt });
      await store.sinks.insert(sink);
      return sink.id;
    },
    remove: async (store, tenantId, id) => void (await store.sinks.delete(tenantId, id, 0)),
    list: (store, tenantId, options) => store.sinks.list(tenantId, options),
  },
];

/** Rule and sink listings: creation-order keyset pages that stay exact while writers insert and delete. */
export function describeCreationOrderPaginationContract(store: () => Store): void {
  for (const listing of listings) {
    describe(`${listing.label} pagination`, () => {
      beforeEach(async () => {
        await store().tenants.ensure('acme', 0);
      });

      it('serves every row that exists throughout exactly once while others are inserted and deleted between pages', async () => {
        let run = 0;
        // Many rows share a creation millisecond, so the id must break ties.
        const scenario = fc.record({
          initial: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 25 }),
          pageSize: fc.integer({ min: 1, max: 7 }),
          writes: fc.array(fc.record({ insertAt: fc.option(fc.integer({ min: 0, max: 8 })), deleteIndex: fc.option(fc.nat()) }), { maxLength: 10 }),
        });
        await fc.assert(
          fc.asyncProperty(scenario, async ({ initial, pageSize, writes }) => {
            const tenantId = `tenant-${++run}`;
            await store().tenants.ensure(tenantId, 0);
            const live = new Set<string>();
            for (const createdAt of initial) live.add(await listing.insert(store(), tenantId, createdAt));
            const before = new Set(live);
            const everInserted = new Set(live);
            const served: string[] = [];
            let token: string | null = null;
            let page = 0;
            do {
              // Writers act between page fetches; a row may be created with an earlier time than
              // the cursor (another process's clock), and then it is simply not seen.
              const write = page > 0 ? writes[page - 1] : undefined;
              if (write?.insertAt != null) {
                const id = await listing.insert(store(), tenantId, write.insertAt);
                live.add(id);
                everInserted.add(id);
              }
              if (write?.deleteIndex != null && live.size > 0) {
                const victim = [...live][write.deleteIndex % live.size] ?? '';
                await listing.remove(store(), tenantId, victim);
                live.delete(victim);
              }
              const result = await listing.list(store(), tenantId, { pageSize, ...(token === null ? {} : { pageToken: token }) });
              expect(result.items.length).toBeLessThanOrEqual(pageSize);
              served.push(...result.items.map((i) => i.id));
              token = result.nextPageToken;
              page += 1;
              if (page > 200) throw new Error('pagination does not end');
            } while (token !== null);
            expect(new Set(served).size).toBe(served.length);
            for (const id of served) expect(everInserted.has(id)).toBe(true);
            const throughout = [...before].filter((id) => live.has(id));
            for (const id of throughout) expect(served).toContain(id);
          }),
          { numRuns: 30 },
        );
      });

      it('orders by creation time then id, and a null token means the last page', async () => {
        const ids = [await listing.insert(store(), 'acme', 2), await listing.insert(store(), 'acme', 1), await listing.insert(store(), 'acme', 2)];
        const expected = [ids[1], ...[ids[0], ids[2]].sort()];
        const first = await listing.list(store(), 'acme', { pageSize: 2 });
        expect(first.items.map((i) => i.id)).toEqual(expected.slice(0, 2));
        const second = await listing.list(store(), 'acme', { pageSize: 2, pageToken: first.nextPageToken ?? '' });
        expect(second.items.map((i) => i.id)).toEqual(expected.slice(2));
        expect(second.nextPageToken).toBeNull();
        expect((await listing.list(store(), 'acme', { pageSize: 3 })).nextPageToken).toBeNull();
      });

      it('a token stays valid after the row it ends on is deleted, and the empty token is the first page', async () => {
        const ids = [];
        for (let i = 0; i < 4; i++) ids.push(await listing.insert(store(), 'acme', i));
        const first = await listing.list(store(), 'acme', { pageSize: 2 });
        await listing.remove(store(), 'acme', ids[1] ?? '');
        const rest = await listing.list(store(), 'acme', { pageSize: 2, pageToken: first.nextPageToken ?? '' });
        expect(rest.items.map((i) => i.id)).toEqual(ids.slice(2));
        expect(await listing.list(store(), 'acme', { pageSize: 2, pageToken: '' })).toEqual(await listing.list(store(), 'acme', { pageSize: 2 }));
      });

      it.each([
        ['garbage', 'abc$def'],
        ['an index token (name, id)', encodePageToken(['web', 'id'])],
        ['a key of the wrong arity', encodePageToken([1])],
        ['a fractional time', encodePageToken([1.5, 'id'])],
      ])('rejects a page token of %s', async (_what, pageToken) => {
        const listed = listing.list(store(), 'acme', { pageSize: 2, pageToken });
        await expect(listed).rejects.toThrow(ValidationError);
        await expect(listed).rejects.toMatchObject({ field: 'pagination[page_token]' });
      });

      it.each([0, -1, 2.5])('rejects the page size %s', async (pageSize) => {
        await expect(listing.list(store(), 'acme', { pageSize })).rejects.toMatchObject({ field: 'pagination[page_size]' });
      });
    });
  }
}
