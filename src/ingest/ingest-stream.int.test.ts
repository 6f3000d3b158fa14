import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { ChdbEngine } from '../engine/chdb/index.js';
import { ingestStream } from './ingest-stream.js';
import { storedValues } from '../engine/testing/engine-fixtures.js';
import type { IngestDependencies } from './ingest-types.js';
import { aTarget, chunked, sequenceCounter } from './testing/ingest-fixtures.js';

// Ingest against the real embedded engine: what ingest hands over must be what ClickHouse's
// JSON type accepts (no duplicate paths, prefix paths, odd keys) and reads back exactly.
const path = mkdtempSync(join(tmpdir(), 'vigil-ingest-'));
const engine = new ChdbEngine({ path, poolSize: 2 });
const deps: IngestDependencies = {
  engine,
  clock: new ManualClock(Date.UTC(2024, 2, 1, 12, 0, 0)),
  reserveSequence: sequenceCounter(),
};

beforeAll(async () => {
  await engine.init();
});

afterAll(async () => {
  await engine.close();
  rmSync(path, { recursive: true, force: true });
});

interface LogRow {
  ts: string;
  seq: string;
  ts_field: string;
  source_type: string;
  raw: string;
  field_paths: string[];
}

async function rowsOf(tenant: string): Promise<LogRow[]> {
  const result = await engine.query<LogRow>(`SELECT toString(ts) AS ts, seq, ts_field, source_type, raw, field_paths FROM logs WHERE tenant = '${tenant}' ORDER BY seq`);
  return result.rows;
}

async function count(tenant: string): Promise<number> {
  const result = await engine.query<{ n: string }>(`SELECT count() AS n FROM logs WHERE tenant = '${tenant}'`);
  return Number(result.rows[0]?.n);
}

describe('ingestStream into chDB', () => {
  it('writes a gzip NDJSON file, skipping its bad line, with values ClickHouse reads back exactly', async () => {
    const lines = [
      '{"@timestamp":"2020-06-10T02:50:56.537123456Z","Keywords":-9223372036854775808,"EventID":4624,"tags":["mordorDataset"]}',
      '{"broken": ',
      '{"ts":1588205199.82437,"id.orig_h":"10.0.1.6","id":{"resp_p":53},"ok":true,"gone":null}',
      '{"a":1,"a.b":2,"x.y":1,"x":{"y":2},"":"empty key","p..q":3,"k[0]":"literal"}',
    ];
    const summary = await ingestStream(chunked(gzipSync(lines.join('\r\n')), 37), aTarget({ tenantId: 'ndjson', sourceType: 'windows:sysmon' }), deps);
    expect(summary).toMatchObject({ ingested: 3, rejected: 1, gzip: true, format: 'ndjson' });
    expect(summary.errors).toEqual([{ line: 2, error: 'invalid JSON: unexpected end of input at column 12' }]);
    expect(await count('ndjson')).toBe(3);

    const rows = await rowsOf('ndjson');
    expect(rows.map((r) => [r.ts, r.ts_field, r.source_type])).toEqual([
      ['2020-06-10 02:50:56.537123456', '@timestamp', 'windows:sysmon'],
      ['2020-04-30 00:06:39.824370000', 'ts', 'windows:sysmon'],
      ['2024-03-01 12:00:00.000000000', '', 'windows:sysmon'],
    ]);
    expect(rows.map((r) => r.raw)).toEqual([lines[0], lines[2], lines[3]]);
    const values = await storedValues(engine, 'ndjson', ['Keywords', 'EventID', 'tags[0]', 'id.orig_h', 'id.resp_p', 'ok', 'a', 'a.b', 'x.y', '', 'p..q', 'k[0]'], 'idx_test');
    const [s, n] = [(v: string) => ({ s: v, n: null }), (v: number) => ({ s: null, n: v })];
    const none = { s: null, n: null };
    expect(values).toEqual([
      [s('-9223372036854775808'), n(4624), s('mordorDataset'), none, none, none, none, none, none, none, none, none],
      [none, none, none, s('10.0.1.6'), n(53), s('true'), none, none, none, none, none, none],
      // a leaf and its child path, the later spelling of x.y, and odd keys all survive
      [none, none, none, none, none, none, n(1), n(2), n(2), s('empty key'), n(3), s('literal')],
    ]);
    expect(rows[1]!.field_paths).toEqual(['ts', 'id.orig_h', 'id.resp_p', 'ok', 'gone']);
    expect([...rows[2]!.field_paths].sort()).toEqual(['', 'a', 'a.b', 'k[0]', 'p..q', 'x.y'].sort());
  });

  it('rejects only the line whose row the engine refuses, with its line number, and writes the rest of its batch', async () => {
    // An engine refusing a row: an insert holding a line with "refuse" fails as the engine fails
    // on data it cannot read (Code 117); the others go to the real engine. (Native blocks of typed
    // columns leave the real engine no value to refuse.)
    const refusing: IngestDependencies = {
      ...deps,
      engine: {
        eventEncoder: engine.eventEncoder.bind(engine),
        insertEvents: (batch) =>
          batch.rows.some((row) => Buffer.from(row.head).includes('"refuse"'))
            ? Promise.reject(new Error('Code: 117. DB::Exception: Cannot parse input: a refused row. (INCORRECT_DATA)'))
            : engine.insertEvents(batch),
      },
    };
    const lines = Array.from({ length: 12 }, (_, i) => JSON.stringify({ n: i + 1, ...(i === 4 || i === 9 ? { refuse: true } : {}) }));
    const summary = await ingestStream([lines.join('\n')], aTarget({ tenantId: 'refused' }), refusing, { batchRows: 8 });
    expect(summary).toMatchObject({ ingested: 10, rejected: 2 });
    expect(summary.errors.map((e) => e.line)).toEqual([5, 10]);
    expect(summary.errors[0]!.error).toMatch(/^the engine refused the event: .*Code: 117/);
    expect((await rowsOf('refused')).map((r) => JSON.parse(r.raw).n)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 11, 12]);
  });

  it('still fails when the engine fails for another reason than a row, keeping earlier batches', async () => {
    let inserts = 0;
    const failing: IngestDependencies = {
      ...deps,
      engine: {
        eventEncoder: engine.eventEncoder.bind(engine),
        insertEvents: (batch) => (++inserts === 2 ? Promise.reject(new Error('disk full')) : engine.insertEvents(batch)),
      },
    };
    const lines = Array.from({ length: 6 }, (_, i) => JSON.stringify({ n: i + 1 }));
    await expect(ingestStream([lines.join('\n')], aTarget({ tenantId: 'enginefail' }), failing, { batchRows: 2 })).rejects.toMatchObject({
      message: 'inserting a batch of events',
      cause: new Error('disk full'),
    });
    expect(inserts).toBe(2);
    expect(await count('enginefail')).toBe(2);
  });

  it('writes a pretty-printed CloudTrail file, one row per record', async () => {
    const file = readFileSync(new URL('./testdata/cloudtrail-sample.json', import.meta.url));
    const summary = await ingestStream([file], aTarget({ tenantId: 'cloudtrail', sourceType: 'aws:cloudtrail' }), deps);
    expect(summary).toMatchObject({ ingested: 3, rejected: 0, format: 'cloudtrail', gzip: false });
    expect(await count('cloudtrail')).toBe(3);
    const rows = await rowsOf('cloudtrail');
    expect(rows.map((r) => [r.ts, r.ts_field])).toEqual([
      ['2020-09-14 00:44:20.000000000', 'eventTime'],
      ['2020-09-14 00:45:01.000000000', 'eventTime'],
      ['2020-09-14 01:13:20.000000000', 'eventTime'],
    ]);
    const records = (JSON.parse(file.toString('utf8')) as { Records: unknown[] }).Records;
    expect(rows.map((r) => JSON.parse(r.raw))).toEqual(records);
    // errorCode held null: the column exists, with no value
    expect(rows[1]!.field_paths).toContain('errorCode');
    expect((await storedValues(engine, 'cloudtrail', ['errorCode'], 'idx_test'))[1]).toEqual([{ s: null, n: null }]);
    // array elements are columns named with their index (D3), not ClickHouse arrays
    const byPath = (await storedValues(engine, 'cloudtrail', ['eventName', 'resources[1].ARN'], 'idx_test')).filter(([name]) => name?.s === 'GetObject');
    expect(byPath.map(([, arn]) => arn?.s)).toEqual(['arn:aws:s3:::mordors3stack-s3bucket-llp2yingx64a']);
  });
});
