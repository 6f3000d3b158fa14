import { describe, expect, it } from 'vitest';
import type { Store } from '../store.js';
import { anIndex } from './store-fixtures.js';

/** Migrations: applying them again changes nothing. */
export function describeMigrationContract(store: () => Store): void {
  describe('migrations', () => {
    it('migrate is idempotent and keeps the data', async () => {
      await store().tenants.ensure('acme', 1);
      const index = anIndex('acme', 'web');
      await store().indexes.insert(index);
      await store().migrate();
      await store().migrate();
      expect(await store().indexes.get('acme', index.id)).toEqual(index);
    });

    it('concurrent migrate calls on one store both succeed', async () => {
      await Promise.all([store().migrate(), store().migrate()]);
      expect(await store().tenants.list()).toEqual([]);
    });
  });
}
