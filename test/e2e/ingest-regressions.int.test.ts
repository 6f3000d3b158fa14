/**
 * Ingest promises of docs/ingest.md, through the HTTP endpoint into the real engine.
 *
 * Numbers of any size go through ingest and come back as numbers queries compare (docs/ingest.md,
 * "`12345678901234567890.5` and `1e20` stay numbers"): through the HTTP ingest endpoint into the
 * real engine, then `/v1/blocking_query`. These once failed a whole batch with a 500 (from 2^64)
 * or were stored where no query reads them (2^63 up to 2^64).
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

const start = '2026-11-20T00:00:00Z';
const end = '2026-11-21T00:00:00Z';
const clock = new ManualClock(Date.parse('2026-11-20T12:00:00Z'));
let h: ApiHarness;
let key: string;

beforeAll(async () => {
  h = await openApiHarness({ clock });
  key = await h.keyFor('acme');
}, 120_000);
afterAll(async () => h?.close());

async function ingest(index: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const r = await h.app.inject({
    method: 'POST',
    url: `/v1/ingest?tenant_id=acme&index=${index}&create_index=true`,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson', ...headers },
    payload: body,
  });
  return { status: r.statusCode, body: r.json() };
}

async function rows(query: string): Promise<Record<string, unknown>[]> {
  const r = await h.call('POST', '/v1/blocking_query', key, { tenant_id: 'acme', query, start_time: start, end_time: end, scan_back_to_front: false });
  expect(r.status).toBe(200);
  return r.body.results.rows.map((row: { columns: Record<string, unknown> }) => row.columns);
}

// the spelling as sent, and the number it is
const big: [string, number][] = [
  ['1e19', 1e19],
  ['12345678901234567890.5', 12345678901234567890.5],
  ['18446744073709551615.0', 18446744073709551615.0],
  ['1e20', 1e20],
  ['-1e20', -1e20],
  ['9.3e18', 9.3e18],
  ['1e21', 1e21],
  ['5', 5],
];

describe('numbers beyond 2^53 written with a fraction or exponent', () => {
  it('are ingested, one event each, and read back as the same numbers', async () => {
    const body = big.map(([text], i) => `{"id":${i},"spelled":"${text}","x":${text}}`).join('\n');
    expect(await ingest('big', body)).toEqual({ status: 200, body: expect.objectContaining({ ingested: big.length, rejected: 0, errors: [] }) });
    expect(await rows('@index = big | table id, x')).toEqual(big.map(([, x], id) => ({ id, x })));
  });

  it('compare as numbers in filters', async () => {
    const ids = async (q: string) => (await rows(`@index = big ${q} | table id`)).map((r) => r.id);
    expect(await ids('x > 1e19')).toEqual([1, 2, 3, 6]);
    expect(await ids('x >= 1e19')).toEqual([0, 1, 2, 3, 6]);
    expect(await ids('x < 0')).toEqual([4]);
    expect(await ids('x = 1e20')).toEqual([3]);
    expect(await ids('x > 9e18 x < 1e19')).toEqual([5]);
  });

  it('in a file with ordinary lines, lose nothing: every line is ingested (they once failed the whole batch)', async () => {
    const r = await ingest('mixed', '{"id":1,"x":5}\n{"id":2,"x":1e20}\n{"id":3,"x":6}');
    expect(r).toEqual({ status: 200, body: expect.objectContaining({ ingested: 3, rejected: 0 }) });
    expect(await rows('@index = mixed | table id, x')).toEqual([
      { id: 1, x: 5 },
      { id: 2, x: 1e20 },
      { id: 3, x: 6 },
    ]);
    expect(await rows('@index = mixed x > 100 | table id')).toEqual([{ id: 2 }]);
  });
});

describe('a gzip body with garbage after its last member', () => {
  it('keeps every line before the garbage and says how many decoded bytes and events came before it', async () => {
    const text = '{"ga":1}\n{"ga":2}\n';
    const r = await ingest('gz', Buffer.concat([gzipSync(text), Buffer.from('GARBAGE')]), { 'content-encoding': 'gzip' });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(
      `gzip stream is corrupt after ${text.length} decoded bytes: the bytes after gzip member 1 are not gzip (incorrect header check); the 2 events before the damage were ingested`,
    );
    expect(await rows('@index = gz | table ga')).toEqual([{ ga: 1 }, { ga: 2 }]);
  });
});

describe('the last instant of the storage column', () => {
  it('is not an event time: the event gets the next field or its ingest time, and a query over everything finds it', async () => {
    const body = [
      '{"id":1,"@timestamp":"2262-04-11T23:47:16.854775807Z"}',
      '{"id":2,"@timestamp":"2262-04-11T23:47:16.854775807Z","time":"2026-11-20T10:00:00Z"}',
      '{"id":3,"@timestamp":"2262-04-11T23:47:16.854775806Z"}',
    ].join('\n');
    expect(await ingest('edge', body)).toMatchObject({ status: 200, body: { ingested: 3, rejected: 0 } });
    const r = await h.call('POST', '/v1/blocking_query', key, {
      tenant_id: 'acme',
      query: '@index = edge | table id',
      start_time: '0001-01-01T00:00:00Z',
      end_time: '9999-12-31T23:59:59Z',
      scan_back_to_front: false,
    });
    expect(r.status).toBe(200);
    expect(r.body.results.rows.map((row: { row_id: { t: string }; columns: Record<string, unknown> }) => [row.columns.id, row.row_id.t])).toEqual([
      [2, String(Date.parse('2026-11-20T10:00:00Z') * 1_000_000)],
      [1, String(clock.nowMs() * 1_000_000)],
      [3, '9223372036854775806'],
    ]);
  });
});

describe('the ingest answer', () => {
  it('names the reader, whether the body was gzip, and the bytes read after decompression', async () => {
    const cloudtrail = JSON.stringify({ Records: [{ eventTime: '2026-11-20T10:00:00Z', eventName: 'A' }, { eventTime: '2026-11-20T10:00:01Z', eventName: 'B' }] }) + '\n';
    const gz = gzipSync(cloudtrail);
    expect(await ingest('ct', gz, { 'content-encoding': 'gzip' })).toEqual({
      status: 200,
      body: { ingested: 2, rejected: 0, events_without_time: 0, errors: [], format: 'cloudtrail', gzip: true, bytes: Buffer.byteLength(cloudtrail), duplicate: false },
    });
    expect(gz.length).not.toBe(Buffer.byteLength(cloudtrail));
    const plain = '{"a":1}\n{"a":2}\n';
    expect((await ingest('plain', plain)).body).toEqual({ ingested: 2, rejected: 0, events_without_time: 2, errors: [], format: 'ndjson', gzip: false, bytes: plain.length, duplicate: false });
  });
});

describe('nesting depth (docs/ingest.md: at most 100 levels, the event itself being level 1)', () => {
  const nested = (levels: number): string => `${'{"a":'.repeat(levels - 1)}{"a":1,"levels":${levels}}${'}'.repeat(levels - 1)}`;

  it('keeps an event 100 levels deep and rejects one 101 deep with its line number (101 was once accepted)', async () => {
    const body = ['{"ts":"2026-11-20T10:00:00Z","levels":1}', nested(100), nested(101)].join('\n');
    const r = await ingest('deep', body);
    expect(r).toEqual({ status: 200, body: expect.objectContaining({ ingested: 2, rejected: 1, errors: [{ line: 3, error: 'event nested deeper than 100 levels' }] }) });
    const path = Array.from({ length: 99 }, () => 'a').join('.');
    expect(await rows(`@index = deep \`${path}.levels\` = 100 | count`)).toEqual([{ '@q.count': 1 }]);
  });
});

describe('first batches into a new index at once, each with create_index=true', () => {
  it('are all ingested into the one index the first created (the others once answered 409 "already exists" and lost their events)', async () => {
    const batch = (from: number) => Array.from({ length: 50 }, (_, i) => JSON.stringify({ ts: '2026-11-20T10:00:00Z', race: from + i })).join('\n');
    const answers = await Promise.all([0, 50, 100, 150].map((from) => ingest('raced', batch(from))));
    expect(answers.map((answer) => [answer.status, answer.body.ingested])).toEqual([[200, 50], [200, 50], [200, 50], [200, 50]]);
    expect(await rows('@index=raced | stats count() as events, countdistinct(race) as ids')).toEqual([expect.objectContaining({ events: 200, ids: 200 })]);
  });
});
