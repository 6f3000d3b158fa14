/**
 * Fault: the disk holding the data dir fills up while `vigil serve` runs (a small tmpfs, so root
 * only; skipped with the reason otherwise). Ingest and sink creation once answered 500 "internal
 * error" and /readyz stayed 200. Now: 507 saying what to do, /readyz 503, the free space as a
 * metric, and everything back once space is freed, with no acknowledged event lost or doubled.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillDisk, mountTmpfs, type Undo } from '../support/faults.js';
import { call, startVigilServer, type ServerProcess } from '../support/vigil-process.js';

let mount: string;
let unmount: Undo | string;
let server: ServerProcess | undefined;

beforeAll(() => {
  mount = mkdtempSync(join(tmpdir(), 'vigil-full-'));
  unmount = mountTmpfs(mount, 96);
});
afterAll(async () => {
  await server?.kill();
  if (typeof unmount !== 'string') unmount();
  rmSync(mount, { recursive: true, force: true });
});

const within = () => AbortSignal.timeout(10_000);
const json = { 'content-type': 'application/json' };
const lines = (from: number, n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ ts: '2026-11-20T10:00:00Z', n: from + i, pad: 'x'.repeat(200) })).join('\n');

describe('a full disk under a running server', () => {
  it('answers 507, turns /readyz 503 with free space 0 in /metrics, and recovers once space is freed, losing nothing acknowledged', async (context) => {
    if (typeof unmount === 'string') return context.skip(unmount);
    server = await startVigilServer(join(mount, 'data'), { VIGIL_DATA_DIR_MIN_FREE_BYTES: String(1 << 20) });
    const { url, bootstrapKey: key } = server;
    const ingest = (from: number) => call(`${url}/v1/ingest?tenant_id=default&index=web&create_index=true`, { method: 'POST', key, body: lines(from, 2000), signal: within() });
    const createSink = () =>
      call(`${url}/v1/event_sink`, {
        method: 'POST',
        key,
        headers: json,
        body: JSON.stringify({ tenant_id: 'default', name: 'hook', description: '', event_sink_args: { Webhook: { url: 'https://hooks.example.com/in' } } }),
        signal: within(),
      });
    const freeBytes = async () => Number(/^vigil_data_dir_free_bytes (\d+)$/m.exec((await call(`${url}/metrics`, { signal: within() })).body)?.[1]);
    expect((await ingest(0)).body).toMatchObject({ ingested: 2000 });

    const free = await fillDisk(mount);
    const refused = await ingest(2000);
    expect(refused.status).toBe(507);
    expect(refused.body.error).toMatch(/the disk holding the data dir is full; free space, then retry/);
    const sink = await createSink();
    expect(sink).toMatchObject({ status: 507, body: { error: expect.stringMatching(/the disk holding the data dir is full/) } });
    const readiness = await call(`${url}/readyz`, { signal: within() });
    expect(readiness.status).toBe(503);
    expect(readiness.body.checks.data_dir).toMatch(/the disk holding the data dir (is full|has \d+ bytes free)/);
    expect(await freeBytes()).toBeLessThan(1 << 20);

    free();
    expect((await call(`${url}/readyz`, { signal: within() })).status).toBe(200);
    expect(await freeBytes()).toBeGreaterThan(64 << 20);
    expect((await ingest(2000)).body).toMatchObject({ ingested: 2000 });
    expect((await createSink()).status).toBe(200);
    const count = await call(`${url}/v1/blocking_query`, {
      method: 'POST',
      key,
      headers: json,
      body: JSON.stringify({ tenant_id: 'default', query: '* | stats count() as events, countdistinct(n) as ids', start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z' }),
      signal: within(),
    });
    expect(count.body.results.rows[0].columns).toMatchObject({ events: 4000, ids: 4000 });
  }, 90_000);
});
