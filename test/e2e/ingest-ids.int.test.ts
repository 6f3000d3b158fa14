/**
 * Ingest ids (docs/ingest.md, "Ingest ids"): an ingestion sent with an id is safe to repeat. A
 * repeat of a finished one writes nothing and answers as it did; a repeat of one that stopped
 * part-way (a broken upload, a crash) first deletes the batches it wrote, so every line is stored
 * exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/services/index.js';
import { ManualClock } from '../../src/core/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

let h: ApiHarness;
let key: string;

beforeAll(async () => {
  h = await openApiHarness({ clock: new ManualClock(Date.parse('2026-11-20T12:00:00Z')), env: { VIGIL_INGEST_BATCH_ROWS: '10' } });
  key = await h.keyFor('acme');
  await h.ingest('acme', 'files', ['{"time":"2026-11-20T00:00:00Z","seed":true}']);
}, 120_000);
afterAll(async () => h?.close());

const lines = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => JSON.stringify({ time: '2026-11-20T10:00:00Z', n: from + i }));

async function stored(): Promise<number[]> {
  const q = await h.call('POST', '/v1/blocking_query', key, { tenant_id: 'acme', query: '@index = files n: * | groupbycount n', start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z', max_rows: 1000 });
  const counts = new Map<number, number>();
  for (const row of q.body.results.rows) counts.set(Number(row.columns.n), Number(row.columns['@q.count']));
  expect([...counts.values()].every((c) => c === 1)).toBe(true); // nothing twice
  return [...counts.keys()].sort((a, b) => a - b);
}

const post = (body: string, ingestId: string) =>
  h.app.inject({ method: 'POST', url: `/v1/ingest?tenant_id=acme&index=files&ingest_id=${encodeURIComponent(ingestId)}`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' }, payload: body });

describe('an ingestion sent with an ingest id', () => {
  it('is written once: the repeat answers the same counts with duplicate: true', async () => {
    const body = lines(1, 25).join('\n') + '\nnot json\n';
    const first = await post(body, 'file-a:1-26');
    expect(first.json()).toMatchObject({ ingested: 25, rejected: 1, duplicate: false, errors: [{ line: 26 }] });
    const again = await post(body, 'file-a:1-26');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ ingested: 25, rejected: 1, duplicate: true, errors: [{ line: 26 }] });
    expect(await stored()).toEqual(lines(1, 25).map((_, i) => i + 1));
  });

  it('that stopped part-way is done again from the start without keeping the batches it wrote', async () => {
    const ingest = h.runtime.services.ingest!;
    const broken = async function* () {
      yield lines(26, 60).join('\n') + '\n';
      throw new Error('connection reset');
    };
    await expect(ingest.ingest({ tenantId: 'acme', index: 'files', ingestId: 'file-a:27-80' }, broken(), cliActor)).rejects.toThrow(/connection reset/);
    const receipt = await h.runtime.services.store.ingestReceipts.get('acme', (await h.runtime.services.indexes.resolve('acme', 'files')).id, 'file-a:27-80');
    expect(receipt?.state).toBe('writing');
    expect(receipt?.sequenceRanges.length).toBeGreaterThan(0);
    expect((await stored()).length).toBeGreaterThan(25); // some batches of the broken try were written

    const whole = async function* () {
      yield lines(26, 80).join('\n') + '\n';
    };
    const { summary, duplicate } = await ingest.ingest({ tenantId: 'acme', index: 'files', ingestId: 'file-a:27-80' }, whole(), cliActor);
    expect({ ingested: summary.ingested, duplicate }).toEqual({ ingested: 55, duplicate: false });
    expect(await stored()).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
  });

  it('refuses an ingest id with spaces or control characters', async () => {
    const r = await post('{"a":1}\n', 'has space');
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatch(/ingest_id/);
  });
});
