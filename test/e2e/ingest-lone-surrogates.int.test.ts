/**
 * A string holding a lone UTF-16 surrogate (`"\ud800"`, `"a\ud83d"`, `"\udc00"`) is stored with
 * U+FFFD in its place (docs/ingest.md, "Lines"), like an invalid UTF-8 byte, and never costs the
 * other lines of its batch. It once failed the whole engine batch: `POST /v1/ingest` answered 500
 * and the batches after it were never written; the CLI exited 1 ("Incorrect surrogate pair").
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';
import { runVigil } from '../support/vigil-process.js';

const start = '2026-11-20T00:00:00Z';
const end = '2026-11-21T00:00:00Z';
const clock = new ManualClock(Date.parse('2026-11-20T12:00:00Z'));
let h: ApiHarness;
let key: string;
let dir: string;

beforeAll(async () => {
  // small batches, so that the bad line sits in the middle of the third of five
  h = await openApiHarness({ clock, env: { VIGIL_INGEST_BATCH_ROWS: '1000' } });
  key = await h.keyFor('acme');
  dir = mkdtempSync(join(tmpdir(), 'vigil-surrogates-'));
}, 120_000);
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `lines` NDJSON lines (5,000, as the report had them); the middle one holds `bad` (JSON text of a string) as its `msg`. */
function fileWith(bad: string, lines = 5000): string {
  const middle = lines / 2;
  return Array.from({ length: lines }, (_, i) =>
    i + 1 === middle ? `{"ts":"2026-11-20T10:00:00Z","n":${i + 1},"msg":${bad}}` : `{"ts":"2026-11-20T10:00:00Z","n":${i + 1},"msg":"fine"}`,
  ).join('\n');
}

async function blocking(query: string): Promise<{ status: number; body: any }> {
  return h.call('POST', '/v1/blocking_query', key, { tenant_id: 'acme', query, start_time: start, end_time: end, scan_back_to_front: false });
}

describe('a lone surrogate escape in one line of 5,000, through POST /v1/ingest', () => {
  it.each([
    ['high', 'hi', String.raw`"\ud800"`, '\ufffd', 5000],
    ['high, after text', 'hitext', String.raw`"a\ud83d"`, 'a\ufffd', 10],
    ['low', 'lo', String.raw`"\udc00"`, '\ufffd', 10],
    ['low then high, upper case', 'rev', String.raw`"\uDC00\uD800x"`, '\ufffd\ufffdx', 10],
  ])('%s: every line is ingested and the bad string is stored with U+FFFD', async (_, index, bad, stored, lines) => {
    const r = await h.app.inject({
      method: 'POST',
      url: `/v1/ingest?tenant_id=acme&index=${index}&create_index=true`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
      payload: fileWith(bad, lines),
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ ingested: lines, rejected: 0, errors: [] });
    const count = await blocking(`@index = ${index} | count`);
    expect(count.body.results.rows[0].columns).toEqual({ '@q.count': lines });
    const row = await blocking(`@index = ${index} n = ${lines / 2} | table msg`);
    expect(row.body.results.rows.map((x: any) => x.columns)).toEqual([{ msg: stored }]);
    // the raw event reads back the same as its column
    const raw = await blocking(`@index = ${index} n = ${lines / 2}`);
    expect(raw.body.results.rows[0].columns.msg).toBe(stored);
  });

  it('a valid surrogate pair is kept as the character it encodes', async () => {
    const r = await h.app.inject({
      method: 'POST',
      url: '/v1/ingest?tenant_id=acme&index=pair&create_index=true',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
      payload: `{"ts":"2026-11-20T10:00:00Z","msg":"\\ud83d\\ude00 \\\\ud800"}`,
    });
    expect(r.json()).toMatchObject({ ingested: 1, rejected: 0 });
    // an escaped backslash before `ud800` is text, not an escape
    expect((await blocking('@index = pair | table msg')).body.results.rows[0].columns).toEqual({ msg: '😀 \\ud800' });
  });

  it('in a key and in a JSON array element, is replaced too', async () => {
    const r = await h.app.inject({
      method: 'POST',
      url: '/v1/ingest?tenant_id=acme&index=arr&create_index=true&format=auto',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: `[{"ts":"2026-11-20T10:00:00Z","k\\ud800":"v","n":1},{"ts":"2026-11-20T10:00:00Z","n":2,"nul\\udbff":null}]`,
    });
    expect(r.json()).toMatchObject({ ingested: 2, rejected: 0, format: 'json-array' });
    const rows = (await blocking('@index = arr | table n, `k\ufffd`')).body.results.rows.map((x: any) => x.columns);
    expect(rows).toEqual([{ n: 1, 'k\ufffd': 'v' }, { n: 2, 'k\ufffd': null }]);
    expect((await blocking('@index = arr `nul\ufffd`: * | count')).body.results.rows[0].columns).toEqual({ '@q.count': 1 });
  });
});

describe('vigil ingest of a file with a lone surrogate', () => {
  it('ingests every line in process and exits 0', async () => {
    const file = join(dir, 'events.ndjson');
    writeFileSync(file, fileWith(String.raw`"\ud800"`));
    const dataDir = join(dir, 'data');
    const run = await runVigil(['ingest', '--tenant', 'acme', '--index', 'cli', '--create-index', '--json', file], {
      dataDir,
      env: { VIGIL_INGEST_BATCH_ROWS: '1000' },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ingested: 5000, rejected: 0 });
  });
});
