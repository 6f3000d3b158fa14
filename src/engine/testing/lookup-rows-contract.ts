import { describe, expect, it } from 'vitest';
import { sqlString } from '../../core/index.js';
import type { Engine } from '../engine.js';
import { uniqueTenant } from './engine-fixtures.js';

async function rowsOf(engine: Engine, tenant: string, tableId: string): Promise<{ version: string; row: number; cells: string[] }[]> {
  const result = await engine.query<{ version: string; row: number; cells: string[] }>(
    `SELECT version, row, cells FROM lookup_rows WHERE tenant = ${sqlString(tenant)} AND table_id = ${sqlString(tableId)} ORDER BY version, row`,
  );
  return result.rows.map((r) => ({ version: r.version, row: Number(r.row), cells: r.cells }));
}

/** Lookup table rows: written under a version, cells kept exactly, old versions and whole tables deleted. */
export function describeLookupRowsContract(engine: () => Engine): void {
  describe('lookup rows', () => {
    it('keeps every cell as written, in row order, quotes, commas and newlines included', async () => {
      const tenant = uniqueTenant();
      const cells = [
        ['1.2.3.4', 'o\'brien "otx"'],
        ['', 'a,b\nc'],
        ['\\x', 'ünïcode ☃'],
      ];
      await engine().writeLookupRows(tenant, 'bad', 'v1', cells);
      expect(await rowsOf(engine(), tenant, 'bad')).toEqual(cells.map((c, row) => ({ version: 'v1', row, cells: c })));
    });

    it('writes more rows than one statement holds', async () => {
      const tenant = uniqueTenant();
      const many = Array.from({ length: 45_000 }, (_, i) => [`k${i}`, `v${i}`]);
      await engine().writeLookupRows(tenant, 'big', 'v1', many);
      const result = await engine().query<{ n: string; last: number }>(`SELECT count() AS n, max(row) AS last FROM lookup_rows WHERE tenant = ${sqlString(tenant)}`);
      expect(result.rows[0]).toEqual({ n: '45000', last: 44_999 });
    });

    it('deletes every version but the one kept, then the whole table, of one tenant only', async () => {
      const tenant = uniqueTenant();
      const other = uniqueTenant();
      await engine().writeLookupRows(tenant, 'bad', 'v1', [['old']]);
      await engine().writeLookupRows(tenant, 'bad', 'v2', [['new']]);
      await engine().writeLookupRows(other, 'bad', 'v1', [['theirs']]);
      await engine().deleteLookupRows(tenant, 'bad', 'v2');
      expect(await rowsOf(engine(), tenant, 'bad')).toEqual([{ version: 'v2', row: 0, cells: ['new'] }]);
      await engine().deleteLookupRows(tenant, 'bad');
      expect(await rowsOf(engine(), tenant, 'bad')).toEqual([]);
      expect(await rowsOf(engine(), other, 'bad')).toEqual([{ version: 'v1', row: 0, cells: ['theirs'] }]);
    });
  });
}
