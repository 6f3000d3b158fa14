import { describe, expect, it } from 'vitest';
import type { Engine } from '../engine.js';
import { anEvent, insert, ns, uniqueTenant } from './engine-fixtures.js';

const day = 86_400_000;

/** The field catalog and per-index statistics, each confined to one tenant. */
export function describeCatalogContract(engine: () => Engine): void {
  describe('field catalog', () => {
    it('lists every path with the types it was stored as, null paths as Null, and row counts', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [
        anEvent({ tenant, attrs: { user: { name: 'ann' }, code: 7, 'odd key@x': 'v' }, nullPaths: ['parent'] }),
        anEvent({ tenant, attrs: { user: { name: 'bob' }, code: 'E7', ratio: 0.5 } }),
      ]);
      expect(await engine().fieldCatalog(tenant, ['main'])).toEqual([
        { path: 'code', types: ['Int64', 'String'], rows: 2 },
        { path: 'odd key@x', types: ['String'], rows: 1 },
        { path: 'parent', types: ['Null'], rows: 1 },
        { path: 'ratio', types: ['Float64'], rows: 1 },
        { path: 'user.name', types: ['String'], rows: 2 },
      ]);
    });

    it('keeps paths as written: quotes, backslashes, control characters, JSON-like and non-ASCII text', async () => {
      const tenant = uniqueTenant();
      const paths = ["it's", 'say "hi"', 'back\\slash', 'tab\there', 'line\nbreak', '{"a":1}', 'naïve.ключ', 'emoji 🔥', '\u0001ctl'];
      await insert(engine(), [anEvent({ tenant, attrs: Object.fromEntries(paths.map((path, i) => [path, i])) })]);
      const listed = await engine().fieldCatalog(tenant, ['main']);
      expect(listed.map((field) => field.path).sort()).toEqual([...paths].sort());
      expect(listed.every((field) => field.rows === 1 && field.types.join() === 'Int64')).toBe(true);
    });

    it('merges the requested indexes, leaves out others, and an empty list asks for nothing', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [
        anEvent({ tenant, indexId: 'a', attrs: { shared: 1, only_a: 1 } }),
        anEvent({ tenant, indexId: 'b', attrs: { shared: 2, only_b: 1 } }),
        anEvent({ tenant, indexId: 'c', attrs: { only_c: 1 } }),
      ]);
      const paths = (await engine().fieldCatalog(tenant, ['a', 'b'])).map((field) => [field.path, field.rows]);
      expect(paths).toEqual([
        ['only_a', 1],
        ['only_b', 1],
        ['shared', 2],
      ]);
      expect(await engine().fieldCatalog(tenant, [])).toEqual([]);
    });

    it('restricts to the days that overlap [fromMs, toMs)', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [
        anEvent({ tenant, tsNs: ns('2024-03-01T12:00:00Z'), attrs: { first_day: 1 } }),
        anEvent({ tenant, tsNs: ns('2024-03-02T12:00:00Z'), attrs: { second_day: 1 } }),
        anEvent({ tenant, tsNs: ns('2024-03-03T12:00:00Z'), attrs: { third_day: 1 } }),
      ]);
      const second = Date.parse('2024-03-02T00:00:00Z');
      const paths = async (from?: number, to?: number) => (await engine().fieldCatalog(tenant, ['main'], from, to)).map((field) => field.path);
      expect(await paths(second, second + day)).toEqual(['second_day']);
      expect(await paths(second)).toEqual(['second_day', 'third_day']);
      expect(await paths(undefined, second)).toEqual(['first_day']);
      expect(await paths()).toEqual(['first_day', 'second_day', 'third_day']);
    });

    it('reads every day for a range reaching outside the days a Date holds (their days wrap)', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [
        anEvent({ tenant, tsNs: ns('1950-06-01T00:00:00Z'), attrs: { in_1950: 1 } }),
        anEvent({ tenant, tsNs: ns('2024-03-01T12:00:00Z'), attrs: { in_2024: 1 } }),
        anEvent({ tenant, tsNs: ns('2200-06-01T00:00:00Z'), attrs: { in_2200: 1 } }),
      ]);
      const paths = async (from: string, to: string) => (await engine().fieldCatalog(tenant, ['main'], Date.parse(from), Date.parse(to))).map((field) => field.path);
      expect(await paths('1900-01-01T00:00:00Z', '2025-01-01T00:00:00Z')).toEqual(['in_1950', 'in_2024', 'in_2200']);
      expect(await paths('2024-01-01T00:00:00Z', '2262-01-01T00:00:00Z')).toEqual(['in_1950', 'in_2024', 'in_2200']);
      expect(await paths('2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z')).toEqual(['in_2024']);
    });

    it('never shows another tenant’s paths', async () => {
      const mine = uniqueTenant();
      const theirs = uniqueTenant();
      await insert(engine(), [anEvent({ tenant: mine, attrs: { mine: 1 } }), anEvent({ tenant: theirs, attrs: { theirs: 1 } })]);
      expect((await engine().fieldCatalog(mine, ['main'])).map((field) => field.path)).toEqual(['mine']);
    });
  });

  describe('index stats', () => {
    it('counts rows and gives the exact time span per index, zero and nulls for an empty one', async () => {
      const tenant = uniqueTenant();
      const other = uniqueTenant();
      await insert(engine(), [
        anEvent({ tenant, indexId: 'a', tsNs: -5n }),
        anEvent({ tenant, indexId: 'a', tsNs: 1_704_164_645_123_456_789n }),
        anEvent({ tenant, indexId: 'a', tsNs: 1_000n }),
        anEvent({ tenant, indexId: 'b', tsNs: 7n }),
        anEvent({ tenant: other, indexId: 'a', tsNs: 9_000_000_000_000_000_000n }),
      ]);
      // Read several times: ClickHouse compiles an aggregation it saw three times (the JIT once
      // ordered times before 1970 as unsigned: see TableOperations.writtenTimeSpans).
      for (let read = 0; read < 5; read++) {
        const stats = await engine().indexStats(tenant, ['a', 'b', 'empty']);
        expect(stats.map(({ bytesOnDisk: _, ...rest }) => rest)).toEqual([
          { indexId: 'a', rows: 3, minTsNs: -5n, maxTsNs: 1_704_164_645_123_456_789n, eventsWithoutTime: 0 },
          { indexId: 'b', rows: 1, minTsNs: 7n, maxTsNs: 7n, eventsWithoutTime: 0 },
          { indexId: 'empty', rows: 0, minTsNs: null, maxTsNs: null, eventsWithoutTime: 0 },
        ]);
      }
      expect(await engine().indexStats(tenant, [])).toEqual([]);
    });

    it('counts the events stamped with their ingest time (no timestamp field) per index', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [
        anEvent({ tenant, indexId: 'a', tsField: '' }),
        anEvent({ tenant, indexId: 'a', tsField: '' }),
        anEvent({ tenant, indexId: 'a', tsField: 'eventTime' }),
        anEvent({ tenant, indexId: 'b', tsField: 'timestamp' }),
      ]);
      const stats = await engine().indexStats(tenant, ['a', 'b']);
      expect(stats.map((s) => [s.indexId, s.rows, s.eventsWithoutTime])).toEqual([
        ['a', 3, 2],
        ['b', 1, 0],
      ]);
    });

    it('estimates bytes on disk by each index’s share of the rows of the parts holding it', async () => {
      const tenant = uniqueTenant();
      const big = (i: number) => ({ text: `${'x'.repeat(500)}${i}` });
      // One insert: one part holding both indexes, a with three times b's rows.
      await insert(engine(), [
        ...[1, 2, 3, 4, 5, 6].map((i) => anEvent({ tenant, indexId: 'a', attrs: big(i) })),
        ...[7, 8].map((i) => anEvent({ tenant, indexId: 'b', attrs: big(i) })),
      ]);
      const [a, b, empty] = await engine().indexStats(tenant, ['a', 'b', 'empty']);
      expect(b!.bytesOnDisk).toBeGreaterThan(0);
      expect(a!.bytesOnDisk / b!.bytesOnDisk).toBeCloseTo(3, 1);
      expect(empty!.bytesOnDisk).toBe(0);
      expect(a!.bytesOnDisk + b!.bytesOnDisk).toBeLessThanOrEqual((await engine().storageStats()).bytesOnDisk);
    });
  });

  describe('event count', () => {
    it('counts the events of the indexes in [fromNs, toNs), each bound optional', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [
        anEvent({ tenant, indexId: 'a', tsNs: 10n }),
        anEvent({ tenant, indexId: 'a', tsNs: 20n }),
        anEvent({ tenant, indexId: 'b', tsNs: 30n }),
        anEvent({ tenant, indexId: 'c', tsNs: 20n }),
        anEvent({ tenant: uniqueTenant(), indexId: 'a', tsNs: 20n }),
      ]);
      expect(await engine().eventCount(tenant, ['a', 'b'])).toBe(3);
      expect(await engine().eventCount(tenant, ['a', 'b'], 20n)).toBe(2);
      expect(await engine().eventCount(tenant, ['a', 'b'], 20n, 30n)).toBe(1);
      expect(await engine().eventCount(tenant, ['a', 'b'], undefined, 20n)).toBe(1);
      expect(await engine().eventCount(tenant, [])).toBe(0);
    });
  });
}
