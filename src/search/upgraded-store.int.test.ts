/**
 * A store written by schema v9 (columns in the JSON column attrs) keeps answering after the
 * upgrade to typed slots (schema v10): queries read the old rows from attrs and the new rows from
 * slots and the rest maps, in one statement, with the same results as if every row were of one
 * layout.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'chdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, silentLogger } from '../core/index.js';
import { ChdbEngine } from '../engine/chdb/index.js';
import { eventWriter } from '../ingest/testing/ingest-fixtures.js';
import { SearchService } from './search-service.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-upgraded-'));
const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
const indexes = [{ id: 'i-web', name: 'web', system: false }];
const base = Date.parse('2026-11-21T00:00:00Z');
const range = { startNs: BigInt(base - 86_400_000) * 1_000_000n, endNs: BigInt(base + 86_400_000) * 1_000_000n };
let engine: ChdbEngine;
/** v9's settings for the JSON column (its eventInsertSettings): strings stay strings. */
const v9InsertSettings = {
  input_format_json_read_objects_as_strings: 1,
  input_format_try_infer_datetimes: 0,
  input_format_try_infer_dates: 0,
  input_format_json_try_infer_numbers_from_strings: 0,
};

/**
 * Rows with the columns schema v9 wrote: attrs as the flattened object, raw as given (v9 sent them
 * as RowBinary through file(); JSONEachRow here stores the same values and is simpler to write).
 */
function v9Row(seq: number, event: Record<string, unknown>, nullPaths: string[] = []): string {
  const attrs = Object.fromEntries(Object.entries(event).filter(([, v]) => v !== null));
  const searchText = Object.values(attrs).map(String).join('\u0000');
  const tsNs = BigInt(Date.parse(event.ts as string)) * 1_000_000n;
  // ts as the bare integer of nanoseconds; raw as the object text.
  const row = { tenant: 'acme', idx: 'i-web', ts: 'TS', seq, source_type: 'test', ts_field: 'ts', raw: 'RAW', search_text: searchText, attrs, null_paths: nullPaths };
  return JSON.stringify(row)
    .replace('"ts":"TS"', `"ts":${tsNs}`)
    .replace('"raw":"RAW"', `"raw":${JSON.stringify(event)}`);
}

beforeAll(async () => {
  // A v9 store: its schema, its version rows, rows with v9's columns (the catalog view fills the catalog).
  const v9 = new Session(dir);
  const ddl = readFileSync(new URL('../engine/testdata/schema-v9.sql', import.meta.url), 'utf8');
  for (const statement of ddl
    .split(/;\n/)
    .map((s) => s.replace(/^--.*\n/gm, '').trim())
    .filter((s) => s !== ''))
    await v9.queryAsync(statement, { format: 'TabSeparated' });
  await v9.queryAsync('INSERT INTO vigil_schema (version) SELECT arrayJoin([1, 2, 3, 4, 5, 6, 7, 8, 9])', { format: 'TabSeparated' });
  const old = [
    v9Row(1, { ts: '2026-11-21T01:00:00Z', status: 200, path: '/a', user: 'ann' }),
    v9Row(2, { ts: '2026-11-21T01:01:00Z', status: 500, path: '/b', gone: null }, ['gone']),
    v9Row(3, { ts: '2026-11-21T01:02:00Z', status: 'n/a', path: '/a' }),
  ];
  await v9.insert({ table: 'logs', values: Buffer.from(old.join('\n')), format: 'JSONEachRow', settings: v9InsertSettings });
  await v9.queryAsync('INSERT INTO time_extents SELECT tenant, idx, min(ts), max(ts) FROM logs GROUP BY tenant, idx', { format: 'TabSeparated' });
  v9.close();

  engine = new ChdbEngine({ path: dir, poolSize: 2 });
  await engine.init();
  // New rows after the upgrade, with a column the old ones lack and one they share.
  const ingest = eventWriter(engine, clock);
  const written = await ingest('i-web', [
    { ts: '2026-11-21T02:00:00Z', status: 200, path: '/a', agent: 'curl' },
    { ts: '2026-11-21T02:01:00Z', status: 404, path: '/c', gone: null },
  ]);
  expect(written.ingested).toBe(2);
}, 60_000);

afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(text: string) {
  const service = new SearchService(engine, async () => indexes, clock, silentLogger);
  const result = await service.run('acme', text, range, { maxRows: 100 });
  return result.rows.map((row) => row.columns);
}

describe('a store upgraded from schema v9', () => {
  it('marks the index as holding rows of map 0, and only it', async () => {
    const layout = await engine.fieldLayout('acme', ['i-web']);
    expect(layout.legacy).toBe(true);
    expect(layout.mapRanges).toHaveLength(1);
    expect(layout.slots.get('status')).toHaveLength(1);
  });

  it('aggregates old and new rows together, with numbers and strings kept apart', async () => {
    const groups = await run('* | groupbycount status');
    expect(groups[0]).toEqual({ status: 200, '@q.count': 2 });
    expect(groups.slice(1)).toEqual(
      expect.arrayContaining([
        { status: 500, '@q.count': 1 },
        { status: 404, '@q.count': 1 },
        { status: 'n/a', '@q.count': 1 },
      ]),
    );
    expect(groups).toHaveLength(4);
    expect((await run('* | stats count() as n, max(status) as top'))[0]).toMatchObject({ n: 5, top: 'n/a' });
  });

  it('filters old and new rows by columns, by existence (nulls included) and by free text', async () => {
    const seqOf = async (text: string) => (await run(text)).map((row) => row.path).sort();
    expect(await seqOf("path: '/a'")).toEqual(['/a', '/a', '/a']);
    expect(await seqOf('status >= 404')).toEqual(['/b', '/c']);
    expect(await seqOf('gone: *')).toEqual(['/b', '/c']);
    expect(await seqOf('agent: *')).toEqual(['/a']);
    expect(await seqOf('ann')).toEqual(['/a']);
    expect(await seqOf('user: ann or agent: curl')).toEqual(['/a', '/a']);
  });

  it('lists the catalog of old rows (from the view of v9) and new rows (written by ingest) together', async () => {
    const catalog = await engine.fieldCatalog('acme', ['i-web']);
    expect(catalog.map((field) => [field.path, field.types])).toEqual([
      ['agent', ['String']],
      ['gone', ['Null']],
      ['path', ['String']],
      ['status', ['Int64', 'String']],
      ['ts', ['String']],
      ['user', ['String']],
    ]);
  });

  it('merges the upgraded table column by column from v12 on', async () => {
    const { rows } = await engine.query<{ engine_full: string }>("SELECT engine_full FROM system.tables WHERE database = currentDatabase() AND name = 'logs'");
    expect(rows[0]?.engine_full).toContain('vertical_merge_algorithm_min_rows_to_activate = 1');
  });

  it('merges the upgraded table into the current layout: the rest maps in buckets (v11), old and new rows still answering', async () => {
    await engine.optimize();
    const { rows } = await engine.query<{ substreams: string[] }>(
      "SELECT substreams FROM system.parts_columns WHERE database = currentDatabase() AND table = 'logs' AND active AND column = 'rest_s'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.substreams).toContain('rest_s.buckets_info');
    expect((await run("path: '/a'")).map((row) => row.user ?? row.agent ?? null)).toEqual(expect.arrayContaining(['ann', 'curl', null]));
  });
});
