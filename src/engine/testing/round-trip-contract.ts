import { describe, expect, it } from 'vitest';
import { EngineError, ErrorCodes } from '../../core/index.js';
import type { Engine } from '../engine.js';
import { timeExtentsOf } from '../time-extents.js';
import { sqlIdentifier, sqlString } from '../../core/index.js';
import { anEvent, countEvents, eventually, insert, uniqueTenant } from './engine-fixtures.js';

/** Writing events and reading them back: exact values, odd paths, statistics, streams. */
export function describeRoundTripContract(engine: () => Engine): void {
  describe('insert and query', () => {
    it('stores every column exactly: nanosecond ts (pre-1970 too), 64-bit seq, raw verbatim, typed attrs, null paths', async () => {
      const tenant = uniqueTenant();
      const raw = '{ "msg" :\t"héllo \\"wörld\\"", "n": 42,\n "emoji": "\\ud83d\\ude00 😀" }';
      const events = [
        anEvent({ tenant, tsNs: -1n, seq: 1n }),
        anEvent({ tenant, tsNs: -2_208_988_799_999_999_999n, seq: 2n }),
        anEvent({ tenant, tsNs: 0n, seq: 3n }),
        anEvent({
          tenant,
          tsNs: 1_704_164_645_123_456_789n,
          seq: 9_007_199_254_740_993n,
          sourceType: 'windows:security',
          tsField: 'TimeCreated',
          rawJson: raw,
          attrsJson: JSON.stringify({ n: 42, f: 1.5, s: 'text', nested: { deep: 'x' } }),
          nullPaths: ['gone', 'also.gone'],
        }),
      ];
      await insert(engine(), events);
      const result = await engine().query<Record<string, unknown>>(
        `SELECT toString(toUnixTimestamp64Nano(ts)) AS ts_ns, toString(seq) AS seq, source_type, ts_field, raw,
  dynamicType(attrs.n) AS n_type, attrs.n.:Int64 AS n, dynamicType(attrs.f) AS f_type, attrs.f.:Float64 AS f,
  dynamicType(attrs.s) AS s_type, attrs.s.:String AS s, attrs.nested.deep.:String AS deep, null_paths
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
        n_type: 'Int64',
        n: '42',
        f_type: 'Float64',
        f: 1.5,
        s_type: 'String',
        s: 'text',
        deep: 'x',
        null_paths: ['gone', 'also.gone'],
      });
      expect(result.columns).toContain('null_paths');
    });

    it('keeps JSON paths with odd characters apart and addressable', async () => {
      const tenant = uniqueTenant();
      const attrs = { 'a b': 'space', '@timestamp': 'at', 'list[0]': 'index', 'k:v': 'colon', "it's": 'quote', 'back`tick': 'bt' };
      await insert(engine(), [anEvent({ tenant, attrs })]);
      const columns = Object.keys(attrs).map((path, i) => `attrs.${sqlIdentifier(path)}.:String AS c${i}`);
      const result = await engine().query<Record<string, string>>(`SELECT ${columns.join(', ')} FROM logs WHERE tenant = ${sqlString(tenant)}`);
      expect(Object.values(result.rows[0] ?? {})).toEqual(Object.values(attrs));
    });

    it('keeps strings that look like dates or numbers as strings', async () => {
      const tenant = uniqueTenant();
      const attrs = { at: '2020-06-10T02:50:56.537123456Z', day: '2021-08-02', spaced: '2022-11-22 18:48:49.177', digits: '0042', port: '443' };
      await insert(engine(), [anEvent({ tenant, attrs })]);
      const paths = Object.keys(attrs);
      const result = await engine().query<Record<string, string>>(
        `SELECT ${paths.map((p, i) => `dynamicType(attrs.${sqlIdentifier(p)}) AS t${i}, attrs.${sqlIdentifier(p)}.:String AS v${i}`).join(', ')} FROM logs WHERE tenant = ${sqlString(tenant)}`,
      );
      const row = result.rows[0] ?? {};
      expect(paths.map((_, i) => row[`t${i}`])).toEqual(paths.map(() => 'String'));
      expect(paths.map((_, i) => row[`v${i}`])).toEqual(Object.values(attrs));
    });

    it('reports the bytes and rows a query scanned', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [anEvent({ tenant }), anEvent({ tenant })]);
      const result = await engine().query(`SELECT count() AS n FROM logs WHERE tenant = ${sqlString(tenant)} AND raw LIKE '%hello%'`);
      expect(result.rows).toEqual([{ n: '2' }]);
      expect(result.stats.bytesRead).toBeGreaterThan(0);
      expect(result.stats.rowsRead).toBeGreaterThanOrEqual(2);
    });

    it('rejects a batch the engine cannot store as engine_failure and writes none of it', async () => {
      const tenant = uniqueTenant();
      const events = [anEvent({ tenant }), anEvent({ tenant, attrsJson: '{"a":1,"a":2}' })];
      const batch = { rows: events.map((event) => engine().encodeEventRow(event)), extents: timeExtentsOf(events) };
      const error = await engine()
        .insertEvents(batch)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).code).toBe(ErrorCodes.engineFailure);
      expect((error as EngineError).message).toMatch(/^inserting events: .*Duplicate path/s);
      expect(await countEvents(engine(), tenant)).toBe(0);
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
