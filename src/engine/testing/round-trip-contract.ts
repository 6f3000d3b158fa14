import { describe, expect, it } from 'vitest';
import { EngineError, ErrorCodes } from '../../core/index.js';
import type { Engine } from '../engine.js';
import { encodeEventRow } from '../encode-event-row.js';
import type { ContractAllowances } from './contract-allowances.js';
import { timeExtentsOf } from '../time-extents.js';
import { sqlString } from '../../core/index.js';
import { anEvent, countEvents, damaged, eventually, insert, storedValues, uniqueTenant } from './engine-fixtures.js';

/** Writing events and reading them back: exact values, odd paths, statistics, streams. */
export function describeRoundTripContract(engine: () => Engine, allowances: ContractAllowances = {}): void {
  describe('insert and query', () => {
    it('stores every column exactly: nanosecond ts (pre-1970 too), 64-bit seq, raw verbatim, typed values, paths with nulls', async () => {
      const tenant = uniqueTenant();
      const raw = '{ "msg" :\t"héllo \\"wörld\\"", "n": 42,\n "emoji": "\\ud83d\\ude00 😀" }';
      const events = [
        anEvent({ tenant, tsNs: -1n, seq: 1n }),
        anEvent({ tenant, tsNs: -2_208_988_799_999_999_999n, seq: 2n }),
        anEvent({ tenant, tsNs: 0n, seq: 3n }),
        anEvent({
          tenant,
          attrs: { n: 42, f: 1.5, s: 'text', nested: { deep: 'x' } },
          tsNs: 1_704_164_645_123_456_789n,
          seq: 9_007_199_254_740_993n,
          sourceType: 'windows:security',
          tsField: 'TimeCreated',
          rawJson: raw,
          nullPaths: ['gone', 'also.gone'],
        }),
      ];
      await insert(engine(), events);
      const result = await engine().query<Record<string, unknown>>(
        `SELECT toString(toUnixTimestamp64Nano(ts)) AS ts_ns, toString(seq) AS seq, source_type, ts_field, raw, field_paths
FROM logs WHERE tenant = ${sqlString(tenant)} ORDER BY seq`,
      );
      expect(result.rows.map((row) => row.ts_ns)).toEqual(['-1', '-2208988799999999999', '0', '1704164645123456789']);
      expect(result.rows.map((row) => row.seq)).toEqual(['1', '2', '3', '9007199254740993']);
      expect(result.rows[3]).toEqual({
        ts_ns: '1704164645123456789',
        seq: '9007199254740993',
        source_type: 'windows:security',
        ts_field: 'TimeCreated',
        raw,
        field_paths: ['n', 'f', 's', 'nested.deep', 'gone', 'also.gone'],
      });
      const values = await storedValues(engine(), tenant, ['n', 'f', 's', 'nested.deep', 'gone']);
      expect(values[3]).toEqual([
        { s: null, n: 42 },
        { s: null, n: 1.5 },
        { s: 'text', n: null },
        { s: 'x', n: null },
        { s: null, n: null },
      ]);
    });

    it('keeps paths with odd characters apart and addressable, in slots and in the rest maps', async () => {
      const tenant = uniqueTenant();
      const attrs = { 'a b': 'space', '@timestamp': 'at', 'list[0]': 'index', 'k:v': 'colon', "it's": 'quote', 'back`tick': 'bt', 'a.b': 'dot' };
      // The first batch promotes every path to a slot; paths seen later, in a batch of many events, stay in the rest maps.
      await insert(engine(), [anEvent({ tenant, attrs })]);
      const later = { 'x y': 'rest space', "it''s": 'rest quote', 'n.m[1]': 7 };
      await insert(engine(), [anEvent({ tenant, attrs: later }), ...Array.from({ length: 200 }, () => anEvent({ tenant, attrs: { other: 1 } }))]);
      const layout = await engine().fieldLayout(tenant, ['main']);
      for (const path of Object.keys(attrs)) expect(layout.slots.get(path)).toHaveLength(1);
      for (const path of Object.keys(later)) expect(layout.slots.has(path)).toBe(false);
      const rows = await storedValues(engine(), tenant, [...Object.keys(attrs), ...Object.keys(later)]);
      expect(rows).toContainEqual([...Object.values(attrs).map((v) => ({ s: v, n: null })), ...Object.keys(later).map(() => ({ s: null, n: null }))]);
      expect(rows).toContainEqual([...Object.keys(attrs).map(() => ({ s: null, n: null })), { s: 'rest space', n: null }, { s: 'rest quote', n: null }, { s: null, n: 7 }]);
    });

    it('keeps strings that look like dates or numbers as strings, and numbers as numbers', async () => {
      const tenant = uniqueTenant();
      const attrs = { at: '2020-06-10T02:50:56.537123456Z', day: '2021-08-02', spaced: '2022-11-22 18:48:49.177', digits: '0042', port: '443', n: 443, f: -1.5, big: 1e20 };
      await insert(engine(), [anEvent({ tenant, attrs })]);
      const rows = await storedValues(engine(), tenant, Object.keys(attrs));
      expect(rows).toEqual([Object.values(attrs).map((v) => (typeof v === 'string' ? { s: v, n: null } : { s: null, n: v }))]);
    });

    it('reports the bytes and rows a query scanned', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [anEvent({ tenant }), anEvent({ tenant })]);
      const result = await engine().query(`SELECT count() AS n FROM logs WHERE tenant = ${sqlString(tenant)} AND raw LIKE '%hello%'`);
      expect(result.rows).toEqual([{ n: '2' }]);
      expect(result.stats.bytesRead).toBeGreaterThan(0);
      expect(result.stats.rowsRead).toBeGreaterThanOrEqual(2);
    });

    it(`${allowances.acknowledgesBeforeWriting ? 'acknowledges' : 'rejects as engine_failure'} a batch the engine cannot read, and writes none of it`, async () => {
      const tenant = uniqueTenant();
      const events = [anEvent({ tenant }), anEvent({ tenant })];
      const batch = { rows: damaged(events.map((event) => encodeEventRow(event))), extents: timeExtentsOf(events) };
      const error = await engine()
        .insertEvents(batch)
        .then(() => null)
        .catch((e: unknown) => e);
      if (allowances.acknowledgesBeforeWriting) expect(error).toBeNull();
      else {
        expect(error).toBeInstanceOf(EngineError);
        expect((error as EngineError).code).toBe(ErrorCodes.engineFailure);
        expect((error as EngineError).message).toMatch(/^inserting events: /);
      }
      expect(await countEvents(engine(), tenant)).toBe(0);
    });

    it('writes batches sent at once, of several tenants, each whole and cataloged once; a batch it cannot read fails alone', async () => {
      // The engine may write concurrent batches as one insert (group-commit.ts): whatever it
      // groups, each caller's outcome and counts must be those of its own batch.
      const batchOf = (tenant: string, count: number) => {
        const events = Array.from({ length: count }, (_, i) => anEvent({ tenant, attrs: { user: `u${i}`, n: i } }));
        return { rows: events.map((event) => encodeEventRow(event)), extents: timeExtentsOf(events) };
      };
      const tenants = [uniqueTenant(), uniqueTenant(), uniqueTenant()];
      const refused = uniqueTenant();
      const unreadable = batchOf(refused, 2);
      const outcomes = await Promise.allSettled([
        ...tenants.flatMap((tenant) => [engine().insertEvents(batchOf(tenant, 3)), engine().insertEvents(batchOf(tenant, 2))]),
        engine().insertEvents({ ...unreadable, rows: damaged(unreadable.rows) }),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual([...Array<string>(6).fill('fulfilled'), allowances.acknowledgesBeforeWriting ? 'fulfilled' : 'rejected']);
      for (const tenant of tenants) {
        expect(await countEvents(engine(), tenant)).toBe(5);
        expect((await engine().fieldCatalog(tenant, ['main'])).map((field) => [field.path, field.rows])).toEqual([
          ['n', 5],
          ['user', 5],
        ]);
      }
      expect(await countEvents(engine(), refused)).toBe(0);
    });

    it('an empty batch writes nothing', async () => {
      await expect(engine().insertEvents({ rows: [], extents: [] })).resolves.toEqual({ rows: 0 });
    });
  });

  describe('stream', () => {
    it('yields every row, in chunks', async () => {
      const chunks: { n: string }[][] = [];
      for await (const chunk of engine().stream<{ n: string }>('SELECT number AS n FROM numbers(300000)')) chunks.push(chunk);
      const rows = chunks.flat();
      expect(rows).toHaveLength(300_000);
      expect(rows[0]).toEqual({ n: '0' });
      expect(rows.at(-1)).toEqual({ n: '299999' });
      expect(chunks.length).toBeGreaterThan(1);
    });

    it('stopping early stops the query in the engine and frees its session', async () => {
      for (let round = 0; round < 6; round++) {
        const tag = `stream-stop-${round}-${uniqueTenant()}`;
        let seen = 0;
        for await (const chunk of engine().stream('SELECT number FROM numbers(1000000000000)', { tag })) {
          seen += chunk.length;
          break;
        }
        expect(seen).toBeGreaterThan(0);
        await eventually(async () => expect(await engine().runningQuery(tag)).toBeNull());
      }
      // More early stops than any sensible pool has sessions: none of them leaked one.
      await expect(engine().query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    });
  });
}
