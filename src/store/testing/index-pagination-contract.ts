import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../core/index.js';
import { encodePageToken } from '../page-token.js';
import type { IndexKind } from '../records.js';
import type { Store } from '../store.js';
import { anIndex } from './store-fixtures.js';

// Letters of both cases and punctuation sort differently under locale collations than by bytes,
// so an adapter whose ORDER BY is not a byte order fails here.
const nameArb = fc.string({ unit: fc.constantFrom(...'aAbBmMzZ09_-.'), minLength: 1, maxLength: 6 });
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const base64urlAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Index listing: keyset pages, opaque stable tokens, rejection of malformed ones. */
export function describeIndexPaginationContract(store: () => Store): void {
  describe('index pagination', () => {
    beforeEach(async () => {
      await store().tenants.ensure('acme', 0);
    });

    const insertNames = async (tenantId: string, names: readonly string[], kind: IndexKind = 'user') => {
      for (const name of names) await store().indexes.insert(anIndex(tenantId, name, { kind }));
    };

    it('walks every row exactly once, in name order, while rows are inserted between pages', async () => {
      let run = 0;
      const rowArb = fc.record({ name: nameArb, wave: fc.nat({ max: 4 }), system: fc.boolean() });
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(rowArb, { selector: (r) => r.name, maxLength: 30 }), fc.integer({ min: 1, max: 8 }), fc.boolean(), async (rows, pageSize, userOnly) => {
          const tenantId = `tenant-${++run}`;
          await store().tenants.ensure(tenantId, 0);
          // Rows of wave w are inserted just before page w is fetched; wave 0 before the walk.
          const insertWave = async (wave: number) => {
            for (const r of rows.filter((row) => row.wave === wave)) {
              await store().indexes.insert(anIndex(tenantId, r.name, { kind: r.system ? 'system' : 'user' }));
            }
          };
          await insertWave(0);
          const expected = rows.filter((r) => r.wave === 0);
          const served: string[] = [];
          const pageLengths: number[] = [];
          let token: string | null = null;
          do {
            const page = pageLengths.length;
            if (page > 0) {
              await insertWave(page);
              // A keyset page starts after the last name served: later rows before it are not seen.
              const cursor = served.at(-1) ?? '';
              expected.push(...rows.filter((r) => r.wave === page && r.name > cursor));
            }
            const result = await store().indexes.list(tenantId, {
              pageSize,
              ...(userOnly ? { kind: 'user' as const } : {}),
              ...(token === null ? {} : { pageToken: token }),
            });
            served.push(...result.items.map((i) => i.name));
            pageLengths.push(result.items.length);
            token = result.nextPageToken;
            if (pageLengths.length > rows.length + 2) throw new Error('pagination does not end');
          } while (token !== null);

          const wanted = (r: { system: boolean }) => !userOnly || !r.system;
          expect(served).toEqual(
            expected
              .filter(wanted)
              .map((r) => r.name)
              .sort(byteOrder),
          );
          expect(pageLengths.slice(0, -1).every((n) => n === pageSize)).toBe(true);
          const everything = await store().indexes.list(tenantId, { pageSize: 1000, ...(userOnly ? { kind: 'user' as const } : {}) });
          const inserted = rows.filter((r) => r.wave < pageLengths.length);
          expect(everything.items.map((i) => i.name)).toEqual(
            inserted
              .filter(wanted)
              .map((r) => r.name)
              .sort(byteOrder),
          );
        }),
        { numRuns: 40 },
      );
    });

    it('answers a null token exactly when no rows remain', async () => {
      await insertNames('acme', ['a', 'b', 'c']);
      expect((await store().indexes.list('acme', { pageSize: 3 })).nextPageToken).toBeNull();
      const first = await store().indexes.list('acme', { pageSize: 2 });
      expect(first.nextPageToken).not.toBeNull();
      const second = await store().indexes.list('acme', { pageSize: 2, pageToken: first.nextPageToken ?? '' });
      expect(second.items.map((i) => i.name)).toEqual(['c']);
      expect(second.nextPageToken).toBeNull();
      expect(await store().indexes.list('acme', { pageSize: 5, kind: 'system' })).toEqual({ items: [], nextPageToken: null });
    });

    it('gives the same token for the same position, and an empty token means the first page', async () => {
      await insertNames('acme', ['a', 'b', 'c']);
      const one = await store().indexes.list('acme', { pageSize: 1 });
      const again = await store().indexes.list('acme', { pageSize: 1, pageToken: '' });
      expect(again).toEqual(one);
    });

    it('a token stays valid after the row it ends on is deleted', async () => {
      await insertNames('acme', ['a', 'b', 'c', 'd']);
      const first = await store().indexes.list('acme', { pageSize: 2 });
      const b = await store().indexes.getByName('acme', 'b');
      await store().indexes.markDeleted('acme', b?.id ?? '', 1);
      const rest = await store().indexes.list('acme', { pageSize: 2, pageToken: first.nextPageToken ?? '' });
      expect(rest.items.map((i) => i.name)).toEqual(['c', 'd']);
    });

    const encodeText = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    it.each([
      ['characters outside base64url', 'abc$def'],
      ['bytes that are not json', encodeText('not json')],
      ['json that is not a token', encodeText('{}')],
      ['null', encodeText('null')],
      ['an unknown version', encodeText(JSON.stringify({ v: 2, k: ['a', 'b'], c: 'x' }))],
      ['a wrong check', encodeText(JSON.stringify({ v: 1, k: ['a', 'b'], c: 'AAAAAAAAAA' }))],
      ['a key of the wrong arity', encodePageToken(['a'])],
      ['a key of the wrong types', encodePageToken([1, 2])],
      ['an overlong token', 'A'.repeat(10_000)],
    ])('rejects a page token with %s', async (_what, pageToken) => {
      const listing = store().indexes.list('acme', { pageSize: 2, pageToken });
      await expect(listing).rejects.toThrow(ValidationError);
      await expect(listing).rejects.toMatchObject({ message: 'invalid page token', field: 'pagination[page_token]' });
    });

    it('rejects a real token with any single character changed, added or removed', async () => {
      await insertNames('acme', ['alpha', 'beta', 'gamma']);
      const token = (await store().indexes.list('acme', { pageSize: 1 })).nextPageToken ?? '';
      const rejected = async (pageToken: string) => {
        await expect(store().indexes.list('acme', { pageSize: 1, pageToken })).rejects.toThrow(ValidationError);
      };
      await rejected(token.slice(0, -1));
      await rejected(`${token}A`);
      await fc.assert(
        fc.asyncProperty(fc.nat({ max: token.length - 1 }), fc.constantFrom(...base64urlAlphabet), async (at, char) => {
          fc.pre(token[at] !== char);
          await rejected(token.slice(0, at) + char + token.slice(at + 1));
        }),
        { numRuns: 60 },
      );
    });

    it.each([0, -1, 2.5])('rejects the page size %s', async (pageSize) => {
      await expect(store().indexes.list('acme', { pageSize })).rejects.toMatchObject({ field: 'pagination[page_size]' });
    });
  });
}
