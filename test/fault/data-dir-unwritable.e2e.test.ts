/**
 * Fault: the data dir stops being writable while `vigil serve` runs (made immutable, as the
 * report did, or read-only). Once, every request including /healthz timed out: the main thread
 * was stuck in SQLite (a SIGBUS in its shared memory, held forever by the engine's signal
 * handler), it stayed stuck after write access came back, and it ignored SIGTERM; starting on
 * such a dir failed with "ENOTDIR … scandir engine.lock". Each request here has its own time
 * limit, so that a wedged server fails the test instead of hanging it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUnwritable, type Undo } from '../support/faults.js';
import { call, runVigil, startVigilServer, type ServerProcess } from '../support/vigil-process.js';

let dir: string;
let server: ServerProcess | undefined;
let undo: Undo | undefined;
const shutdownS = 10;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-unwritable-'));
});
afterAll(async () => {
  undo?.();
  await server?.kill();
  rmSync(dir, { recursive: true, force: true });
});

const within = { signal: () => AbortSignal.timeout(5_000) };
const events = (from: number, n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ ts: '2026-11-20T10:00:00Z', n: from + i })).join('\n');

describe('a data dir that stops being writable under a running server', () => {
  it('answers /healthz, turns /readyz and writes into 503 naming the cause, comes back without a restart, and stops on SIGTERM meanwhile', async (context) => {
    const data = join(dir, 'data');
    server = await startVigilServer(data, { VIGIL_SHUTDOWN_TIMEOUT_S: String(shutdownS) });
    const { url, bootstrapKey: key } = server;
    const ingest = (from: number) => call(`${url}/v1/ingest?tenant_id=default&index=web&create_index=true`, { method: 'POST', key, body: events(from, 100), signal: within.signal() });
    expect((await ingest(0)).body).toMatchObject({ ingested: 100 });

    const made = makeUnwritable(data);
    if (typeof made === 'string') return context.skip(made);
    undo = made;
    expect((await call(`${url}/healthz`, { signal: within.signal() })).status).toBe(200);
    const notReady = await call(`${url}/readyz`, { signal: within.signal() });
    expect(notReady.status).toBe(503);
    expect(notReady.body.checks.data_dir).toMatch(/the data dir cannot be written/);
    for (const response of [await ingest(100), await call(`${url}/v1/index?tenant_id=default`, { key, signal: within.signal() })]) {
      expect(response.status).toBe(503);
      expect(response.body.error).toMatch(/the data dir cannot be written .*make it writable, then retry/);
    }

    undo();
    expect((await call(`${url}/readyz`, { signal: within.signal() })).body).toEqual({ status: 'ready', checks: { engine: 'ok', store: 'ok', data_dir: 'ok' } });
    expect((await ingest(100)).body).toMatchObject({ ingested: 100 });
    const count = await call(`${url}/v1/blocking_query`, {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: 'default', query: '* | count', start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z' }),
      signal: within.signal(),
    });
    // every acknowledged event, once: the refused batch was never written
    expect(count.body.results.rows[0].columns).toEqual({ '@q.count': 200 });

    undo = makeUnwritable(data) as Undo;
    const started = Date.now();
    const code = await Promise.race([server.stop(), new Promise<string>((resolve) => setTimeout(() => resolve('still running'), (shutdownS + 5) * 1000))]);
    expect(code, server.stderr()).not.toBe('still running');
    server = undefined;
    expect(Date.now() - started).toBeLessThan((shutdownS + 5) * 1000);
    undo();
  }, 90_000);

  it('refuses to start on it, naming the real problem (it once said "ENOTDIR … scandir engine.lock")', async (context) => {
    const data = join(dir, 'stale');
    expect((await runVigil(['keys', 'create', '--tenant', 'acme'], { dataDir: data })).code).toBe(0);
    writeFileSync(join(data, 'engine.lock'), '999999'); // left by a process that is gone
    const made = makeUnwritable(data);
    if (typeof made === 'string') return context.skip(made);
    undo = made;
    const run = await runVigil(['serve', '--port', '0'], { dataDir: data });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^vigil: data dir ${data} cannot be written \\((EPERM|EACCES|EROFS)\\): make it writable`));
    undo();
  }, 60_000);
});
