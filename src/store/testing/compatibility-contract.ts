import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../core/index.js';
import type { LookupTableRecord } from '../compatibility-store.js';
import type { Store } from '../store.js';

const table = (tenantId: string, overrides: Partial<LookupTableRecord> = {}): LookupTableRecord => ({
  id: `lt-${tenantId}-${overrides.name ?? 'bad_ips'}`,
  tenantId,
  name: 'bad_ips',
  description: 'known bad addresses',
  columns: ['indicator', 'provider'],
  numRows: 2,
  sizeBytes: 54,
  dataVersion: 'v1',
  createdAt: 1000,
  updatedAt: 1000,
  ...overrides,
});

/** Lookup tables and query usage (docs/compatibility.md). */
export function describeCompatibilityContract(store: () => Store): void {
  describe('lookup tables', () => {
    it('insert then get, by name, any tenant, the file, and the list by name and page', async () => {
      await store().tenants.ensure('acme', 0);
      await store().tenants.ensure('globex', 0);
      const bad = table('acme');
      const zones = table('acme', { name: 'zones', columns: ['cidr'], description: null, createdAt: 2000, updatedAt: 2000 });
      await store().lookupTables.insert(bad, 'indicator,provider\n1.2.3.4,otx\n5.6.7.8,feodo\n');
      await store().lookupTables.insert(zones, 'cidr\n10.0.0.0/8\n');
      await store().lookupTables.insert(table('globex'), 'indicator\n');
      expect(await store().lookupTables.get('acme', bad.id)).toEqual(bad);
      expect(await store().lookupTables.get('globex', bad.id)).toBeNull();
      expect(await store().lookupTables.getAnyTenant(zones.id)).toEqual(zones);
      expect(await store().lookupTables.getByName('acme', 'zones')).toEqual(zones);
      expect(await store().lookupTables.csv('acme', bad.id)).toBe('indicator,provider\n1.2.3.4,otx\n5.6.7.8,feodo\n');
      expect((await store().lookupTables.listAll('acme')).map((t) => t.name)).toEqual(['bad_ips', 'zones']);
      const first = await store().lookupTables.list('acme', { pageSize: 1 });
      expect(first.items).toEqual([bad]);
      const second = await store().lookupTables.list('acme', { pageSize: 1, pageToken: first.nextPageToken ?? undefined });
      expect(second).toEqual({ items: [zones], nextPageToken: null });
    });

    it('refuses a second table of the same name in a tenant', async () => {
      await store().tenants.ensure('acme', 0);
      await store().lookupTables.insert(table('acme'), 'a\n');
      await expect(store().lookupTables.insert(table('acme', { id: 'other' }), 'a\n')).rejects.toThrow(ConflictError);
    });

    it('updates the description, replaces the data, and deletes', async () => {
      await store().tenants.ensure('acme', 0);
      const bad = table('acme');
      await store().lookupTables.insert(bad, 'indicator,provider\n');
      const described = await store().lookupTables.update('acme', bad.id, { description: null }, 3000);
      expect(described).toEqual({ ...bad, description: null, updatedAt: 3000 });
      const data = { columns: ['ip'], numRows: 1, sizeBytes: 10, dataVersion: 'v2', csv: 'ip\n9.9.9.9\n' };
      const replaced = await store().lookupTables.update('acme', bad.id, { data }, 4000);
      expect(replaced).toEqual({ ...bad, description: null, columns: ['ip'], numRows: 1, sizeBytes: 10, dataVersion: 'v2', updatedAt: 4000 });
      expect(await store().lookupTables.csv('acme', bad.id)).toBe('ip\n9.9.9.9\n');
      expect(await store().lookupTables.update('globex', bad.id, { description: 'x' }, 5000)).toBeNull();
      expect(await store().lookupTables.delete('acme', bad.id)).toBe(true);
      expect(await store().lookupTables.delete('acme', bad.id)).toBe(false);
      expect(await store().lookupTables.get('acme', bad.id)).toBeNull();
    });
  });

  describe('query usage', () => {
    it('adds bytes per tenant and day and totals a range of days', async () => {
      await store().queryUsage.add('acme', '2026-11-01', 100);
      await store().queryUsage.add('acme', '2026-11-01', 50);
      await store().queryUsage.add('acme', '2026-11-30', 7);
      await store().queryUsage.add('acme', '2026-12-01', 1000);
      await store().queryUsage.add('globex', '2026-11-02', 9);
      expect(await store().queryUsage.total('acme', '2026-11-01', '2026-11-30')).toBe(157);
      expect(await store().queryUsage.total('globex', '2026-11-01', '2026-11-30')).toBe(9);
      expect(await store().queryUsage.total('initech', '2026-11-01', '2026-11-30')).toBe(0);
    });
  });
}
