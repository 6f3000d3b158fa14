/**
 * An over-large gzip body after some batches were written (docs/ingest.md, "Batches are
 * acknowledged as they are written"): the 413 says how many events were written and from which
 * line to resend, and resending exactly that rest stores every line once.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

let h: ApiHarness;
let key: string;

beforeAll(async () => {
  h = await openApiHarness({
    clock: new ManualClock(Date.parse('2026-11-20T12:00:00Z')),
    env: { VIGIL_MAX_INGEST_BYTES: '200000', VIGIL_INGEST_BATCH_ROWS: '100' },
  });
  key = await h.keyFor('acme');
}, 120_000);
afterAll(async () => h?.close());

const post = (body: Buffer, headers: Record<string, string>) =>
  h.app.inject({
    method: 'POST',
    url: '/v1/ingest?tenant_id=acme&index=big&create_index=true',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson', ...headers },
    payload: body,
  });

describe('a gzip body that decodes past the size limit', () => {
  it('answers 413 naming the events written and the line to resend from; resending the rest completes it', async () => {
    const lines = Array.from({ length: 10_000 }, (_, n) => JSON.stringify({ n, msg: `request ${n} done` }));
    const body = gzipSync(lines.join('\n') + '\n');
    expect(body.length).toBeLessThan(200_000);
    const r = await post(body, { 'content-encoding': 'gzip' });
    expect(r.statusCode).toBe(413);
    const match = /^request body exceeds 200000 bytes; the (\d+) events before the limit were ingested \(input lines 1 to (\d+); resend from line (\d+)\)$/.exec(r.json().error);
    expect(match).not.toBeNull();
    const [written, through, from] = match!.slice(1).map(Number) as [number, number, number];
    expect(written).toBeGreaterThan(0);
    expect(written % 100).toBe(0);
    expect([through, from]).toEqual([written, written + 1]);

    const count = async () => {
      const q = await h.call('POST', '/v1/blocking_query', key, { tenant_id: 'acme', query: '@index = big | count', start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z' });
      return q.body.results.rows[0].columns['@q.count'];
    };
    expect(await count()).toBe(written);
    const rest = lines.slice(from - 1, from - 1 + 2000);
    expect((await post(gzipSync(rest.join('\n') + '\n'), { 'content-encoding': 'gzip' })).json()).toMatchObject({ ingested: rest.length, rejected: 0 });
    expect(await count()).toBe(written + rest.length);
  });
});
