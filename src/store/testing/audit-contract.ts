import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../core/index.js';
import type { Store } from '../store.js';
import { anAuditEntry } from './store-fixtures.js';

/** The audit outbox: oldest-first draining and shipping. */
export function describeAuditContract(store: () => Store): void {
  describe('audit outbox', () => {
    it('listUnshipped returns entries oldest first, whatever the append order, up to the limit', async () => {
      const late = anAuditEntry({ at: 3000 });
      const early = anAuditEntry({ at: 1000 });
      const middle = anAuditEntry({ at: 2000 });
      for (const entry of [late, early, middle]) await store().audit.append(entry);
      expect(await store().audit.listUnshipped(10)).toEqual([early, middle, late]);
      expect(await store().audit.listUnshipped(2)).toEqual([early, middle]);
    });

    it('entries of the same millisecond come in id order', async () => {
      const entries = ['c', 'a', 'b'].map((id) => anAuditEntry({ id, at: 5 }));
      for (const entry of entries) await store().audit.append(entry);
      expect((await store().audit.listUnshipped(10)).map((e) => e.id)).toEqual(['a', 'b', 'c']);
    });

    it('keeps target, details and tenant as given', async () => {
      const entry = anAuditEntry({ tenantId: 'globex', actor: 'key:k1', target: null, details: { nested: { list: [1, 'two', null] }, ok: true } });
      await store().audit.append(entry);
      expect(await store().audit.listUnshipped(1)).toEqual([entry]);
    });

    it('shipped entries are not listed again; others stay', async () => {
      const entries = [1, 2, 3, 4].map((at) => anAuditEntry({ at }));
      for (const entry of entries) await store().audit.append(entry);
      const [first, second, third, fourth] = entries;
      await store().audit.markShipped([first?.id ?? '', third?.id ?? '', 'no-such-entry']);
      await store().audit.markShipped([]);
      expect(await store().audit.listUnshipped(10)).toEqual([second, fourth]);
      await store().audit.markShipped([second?.id ?? '', fourth?.id ?? '']);
      expect(await store().audit.listUnshipped(10)).toEqual([]);
    });

    it('ships more entries in one call than a statement can bind', async () => {
      const entries = Array.from({ length: 1200 }, (_, i) => anAuditEntry({ at: i }));
      for (const entry of entries) await store().audit.append(entry);
      await store().audit.markShipped(entries.map((e) => e.id));
      expect(await store().audit.listUnshipped(10)).toEqual([]);
    });

    it('an entry id is appended once', async () => {
      const entry = anAuditEntry();
      await store().audit.append(entry);
      await expect(store().audit.append(entry)).rejects.toThrow(ConflictError);
    });

    it.each([0, -3, 1.5])('rejects the limit %s', async (limit) => {
      await expect(store().audit.listUnshipped(limit)).rejects.toThrow(ValidationError);
    });
  });
}
