import { describe, expect, it } from 'vitest';
import type { Engine } from '../engine.js';
import { sqlString } from '../../core/index.js';
import { anEvent, countEvents, insert, ns, uniqueTenant } from './engine-fixtures.js';

/** The tenant's per-minute event counts (`event_minutes`, filled on insert), summed. */
async function minuteCounts(engine: Engine, tenant: string): Promise<Record<string, unknown>[]> {
  const result = await engine.query<{ idx: string; minute: string; rows: string }>(
    `SELECT idx, toString(minute) AS minute, sum(rows) AS rows FROM event_minutes WHERE tenant = ${sqlString(tenant)} GROUP BY idx, minute ORDER BY idx, minute`,
  );
  return result.rows.map((row) => ({ idx: row.idx, minute: row.minute, rows: Number(row.rows) }));
}

/** Index deletion, retention and the storage figures. */
export function describeDeletionContract(engine: () => Engine): void {
  describe('deletion', () => {
    it('deleteIndexEvents removes exactly one index of one tenant, with its catalog rows', async () => {
      const tenant = uniqueTenant();
      const other = uniqueTenant();
      await insert(engine(), [
        anEvent({ tenant, indexId: 'gone', attrs: { gone_path: 1 } }),
        anEvent({ tenant, indexId: 'gone', attrs: { gone_path: 2 } }),
        anEvent({ tenant, indexId: 'kept', attrs: { kept_path: 1 } }),
        anEvent({ tenant: other, indexId: 'gone', attrs: { other_path: 1 } }),
      ]);
      await engine().deleteIndexEvents(tenant, 'gone');
      expect(await countEvents(engine(), tenant, 'gone')).toBe(0);
      expect(await countEvents(engine(), tenant, 'kept')).toBe(1);
      expect(await countEvents(engine(), other, 'gone')).toBe(1);
      expect(await engine().fieldCatalog(tenant, ['gone'])).toEqual([]);
      expect((await engine().fieldCatalog(tenant, ['kept'])).map((field) => field.path)).toEqual(['kept_path']);
      expect((await engine().fieldCatalog(other, ['gone'])).map((field) => field.path)).toEqual(['other_path']);
      const indexRows = async (t: string) => (await minuteCounts(engine(), t)).map(({ idx, rows }) => ({ idx, rows }));
      expect(await indexRows(tenant)).toEqual([{ idx: 'kept', rows: 1 }]);
      expect(await indexRows(other)).toEqual([{ idx: 'gone', rows: 1 }]);
    });

    it('indexesWithEvents lists the indexes written to, of tenants with the prefix, until they are deleted', async () => {
      const prefix = `${uniqueTenant()}~scratch-`;
      await insert(engine(), [
        anEvent({ tenant: `${prefix}b`, indexId: 'x' }),
        anEvent({ tenant: `${prefix}a`, indexId: 'y' }),
        anEvent({ tenant: `${prefix}a`, indexId: 'x' }),
        anEvent({ tenant: `${prefix}a`, indexId: 'x' }),
        anEvent({ tenant: `${prefix.slice(0, -1)}`, indexId: 'x' }),
      ]);
      expect(await engine().indexesWithEvents(prefix)).toEqual([
        { tenant: `${prefix}a`, indexId: 'x' },
        { tenant: `${prefix}a`, indexId: 'y' },
        { tenant: `${prefix}b`, indexId: 'x' },
      ]);
      await engine().deleteIndexEvents(`${prefix}a`, 'x');
      expect(await engine().indexesWithEvents(prefix)).toEqual([
        { tenant: `${prefix}a`, indexId: 'y' },
        { tenant: `${prefix}b`, indexId: 'x' },
      ]);
      expect(await engine().indexesWithEvents(`${prefix}zz`)).toEqual([]);
    });

    it('deleteEventsBefore removes the events strictly older than the cutoff, of that index only', async () => {
      const tenant = uniqueTenant();
      const other = uniqueTenant();
      const cutoff = ns('2024-05-10T08:00:00.000000500Z');
      await insert(engine(), [
        anEvent({ tenant, tsNs: ns('2024-05-08T12:00:00Z'), attrs: { old_day: 1 } }),
        anEvent({ tenant, tsNs: cutoff - 1n, attrs: { cutoff_day: 1 } }),
        anEvent({ tenant, tsNs: cutoff, attrs: { cutoff_day: 2 } }),
        anEvent({ tenant, tsNs: ns('2024-05-11T00:00:00Z'), attrs: { new_day: 1 } }),
        anEvent({ tenant, indexId: 'other-index', tsNs: ns('2024-05-08T12:00:00Z') }),
        anEvent({ tenant: other, tsNs: ns('2024-05-08T12:00:00Z') }),
      ]);
      await engine().deleteEventsBefore(tenant, 'main', cutoff);
      const left = await engine().query<{ ts: string }>(
        `SELECT toString(toUnixTimestamp64Nano(ts)) AS ts FROM logs WHERE tenant = ${sqlString(tenant)} AND idx = 'main' ORDER BY ts`,
      );
      expect(left.rows.map((row) => BigInt(row.ts))).toEqual([cutoff, ns('2024-05-11T00:00:00Z')]);
      expect(await countEvents(engine(), tenant, 'other-index')).toBe(1);
      expect(await countEvents(engine(), other)).toBe(1);
      // The cutoff's own day still holds events, so its catalog rows stay; older days go.
      expect((await engine().fieldCatalog(tenant, ['main'])).map((field) => field.path)).toEqual(['cutoff_day', 'new_day']);
      // Per-minute counts go for minutes wholly before the cutoff; the cutoff's minute keeps its two.
      expect(await minuteCounts(engine(), tenant)).toEqual([
        { idx: 'main', minute: '2024-05-10 08:00:00', rows: 2 },
        { idx: 'main', minute: '2024-05-11 00:00:00', rows: 1 },
        { idx: 'other-index', minute: '2024-05-08 12:00:00', rows: 1 },
      ]);
    });

    it('deleteEventsBefore with no event older than the cutoff writes no mutation', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [anEvent({ tenant, tsNs: ns('2024-05-11T00:00:00Z') })]);
      const mutations = async (): Promise<number> =>
        Number((await engine().query<{ n: string }>("SELECT count() AS n FROM system.mutations WHERE database = currentDatabase() AND table = 'logs'")).rows[0]?.n);
      const before = await mutations();
      await engine().deleteEventsBefore(tenant, 'main', ns('2024-05-10T00:00:00Z'));
      expect(await mutations()).toBe(before);
      expect(await countEvents(engine(), tenant, 'main')).toBe(1);
      await engine().deleteEventsBefore(tenant, 'main', ns('2024-05-12T00:00:00Z'));
      expect(await mutations()).toBe(before + 1);
      expect(await countEvents(engine(), tenant, 'main')).toBe(0);
    });
  });

  describe('deleting the batches of a stopped ingestion', () => {
    it('deleteEventsBySequence removes exactly the events of the ranges, of that index only', async () => {
      const tenant = uniqueTenant();
      const other = uniqueTenant();
      const seqs = [100n, 101n, 102n, 103n, 104n, 105n];
      await insert(engine(), [
        ...seqs.map((seq) => anEvent({ tenant, seq, attrs: { n: Number(seq) } })),
        anEvent({ tenant, indexId: 'other-index', seq: 101n }),
        anEvent({ tenant: other, seq: 101n }),
      ]);
      await engine().deleteEventsBySequence(tenant, 'main', [
        { first: 101n, count: 2 },
        { first: 105n, count: 1 },
      ]);
      const left = await engine().query<{ seq: string }>(`SELECT toString(seq) AS seq FROM logs WHERE tenant = ${sqlString(tenant)} AND idx = 'main' ORDER BY seq`);
      expect(left.rows.map((row) => row.seq)).toEqual(['100', '103', '104']);
      expect(await countEvents(engine(), tenant, 'other-index')).toBe(1);
      expect(await countEvents(engine(), other)).toBe(1);
    });

    it('deleteEventsBySequence writes no mutation when no event of the ranges is stored', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [anEvent({ tenant, seq: 7n })]);
      const mutations = async (): Promise<number> =>
        Number((await engine().query<{ n: string }>("SELECT count() AS n FROM system.mutations WHERE database = currentDatabase() AND table = 'logs'")).rows[0]?.n);
      const before = await mutations();
      await engine().deleteEventsBySequence(tenant, 'main', [{ first: 8n, count: 10 }]);
      await engine().deleteEventsBySequence(tenant, 'main', []);
      expect(await mutations()).toBe(before);
      expect(await countEvents(engine(), tenant, 'main')).toBe(1);
    });
  });

  describe('retention beyond the days a Date holds', () => {
    it('deleteEventsBefore a cutoff before 1970 keeps the catalog rows of the events it keeps', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [anEvent({ tenant, tsNs: ns('1925-01-01T00:00:00Z'), attrs: { old: 1 } }), anEvent({ tenant, tsNs: ns('2024-05-08T12:00:00Z'), attrs: { kept: 1 } })]);
      await engine().deleteEventsBefore(tenant, 'main', ns('1926-01-01T00:00:00Z'));
      expect(await countEvents(engine(), tenant, 'main')).toBe(1);
      expect((await engine().fieldCatalog(tenant, ['main'])).map((field) => field.path)).toContain('kept');
    });
  });

  describe('storage', () => {
    it('reports the active parts, and optimize merges deleted rows away', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [anEvent({ tenant }), anEvent({ tenant })]);
      const before = await engine().storageStats();
      expect(before.rows).toBeGreaterThanOrEqual(2);
      expect(before.parts).toBeGreaterThan(0);
      expect(before.bytesOnDisk).toBeGreaterThan(0);
      expect(before.uncompressedBytes).toBeGreaterThan(0);
      await engine().deleteIndexEvents(tenant, 'main');
      await engine().optimize();
      const after = await engine().storageStats();
      const live = await engine().query<{ n: string }>('SELECT count() AS n FROM logs');
      // Lightweight deletes only mask rows; the final merge drops them from the parts.
      expect(after.rows).toBe(Number(live.rows[0]?.n));
      expect(after.rows).toBeLessThan(before.rows);
    });
  });
}
