/**
 * `vigil ingest` sends a file in bounded pieces, each with an ingest id (docs/ingest.md, "Large
 * files" and "Ingest ids"): a file larger than the server's body limit goes in several requests,
 * its lines numbered as in the file; an ingest killed with SIGKILL midway, run again, skips the
 * pieces done and stores every line exactly once. Events without a time of their own are warned about.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runVigil, startVigilServer, type ServerProcess } from '../support/vigil-process.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-cli-pieces-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** NDJSON lines of ~120 bytes timed by TimeCreated (every 500th has no time), numbered from 1, and a bad line every 997th. */
function lines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    if (i % 997 === 996) return 'not json';
    const time = i % 500 === 499 ? {} : { TimeCreated: new Date(Date.UTC(2026, 4, 1) + i * 1000).toISOString() };
    return JSON.stringify({ ...time, n: i + 1, msg: `request ${i + 1} served in ${i % 50} ms` });
  });
}

/** Events and distinct line numbers stored (over all time: some events got the ingest time). */
async function counts(dataDir: string, tenant: string): Promise<{ events: number; distinct: number }> {
  const r = await runVigil(['query', '* | stats count() as c, countdistinct(n) as d', '--tenant', tenant, '--from', '2000-01-01T00:00:00Z', '--to', '2100-01-01T00:00:00Z', '--json'], { dataDir });
  expect(r.code, r.stderr).toBe(0);
  const { c, d } = JSON.parse(r.stdout.trim()).columns;
  return { events: c, distinct: d };
}

describe('a file larger than the server takes in one request', () => {
  let server: ServerProcess;
  let dataDir: string;
  afterAll(async () => server?.stop());

  it('goes in several requests, reports lines by their number in the file, and warns of events without a time', async () => {
    dataDir = join(dir, 'served');
    const file = join(dir, 'big.ndjson.gz');
    const all = lines(2000);
    writeFileSync(file, gzipSync(all.join('\n') + '\n'));
    const env = { VIGIL_MAX_INGEST_BYTES: '80000' }; // ~240 KB decoded: at least three requests
    server = await startVigilServer(dataDir, env);
    const r = await runVigil(['ingest', '--tenant', 'default', '--index', 'big', '--create-index', file], { dataDir, env });
    expect(r.code, r.stderr).toBe(3); // the bad lines
    const bad = all.filter((l) => l === 'not json').length;
    expect(r.stdout).toContain(`${file}: ${(all.length - bad).toLocaleString('en-US')} ingested, ${bad} rejected (${(Buffer.byteLength(all.join('\n') + '\n') / 1024).toFixed(1)} KiB, read as gzip of ndjson)`);
    expect(r.stderr).toContain(`${file}:997: invalid JSON`);
    expect(r.stderr).toContain(`${file}:1994: invalid JSON`);
    expect(r.stderr).toContain(`warning: ${file}: 4 events had no time of their own`);
    const q = await call(`${server.url}/v1/blocking_query`, {
      method: 'POST',
      key: server.bootstrapKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: 'default', query: '* | stats count() as c, countdistinct(n) as d', start_time: '2000-01-01T00:00:00Z', end_time: '2100-01-01T00:00:00Z' }),
    });
    expect(q.body.results.rows[0].columns).toMatchObject({ c: all.length - bad, d: all.length - bad });
    const requests = await call(`${server.url}/metrics`);
    expect(Number(/vigil_http_requests_total\{method="POST",route="\/v1\/ingest",status="200"\} (\d+)/.exec(String(requests.body))?.[1])).toBeGreaterThanOrEqual(3);
  });
});

describe('an ingest killed with SIGKILL midway', () => {
  it('run again stores every line exactly once', async () => {
    const dataDir = join(dir, 'killed');
    const file = join(dir, 'killed.ndjson');
    const all = lines(6000).filter((l) => l !== 'not json');
    writeFileSync(file, all.join('\n') + '\n');
    const env = { VIGIL_MAX_INGEST_BYTES: '100000', VIGIL_INGEST_BATCH_ROWS: '400' }; // eight pieces of two batches
    const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
    const args = ['--import', 'tsx', join(repoRoot, 'src/bin.ts'), 'ingest', '--tenant', 'default', '--index', 'k', '--create-index', '--quiet', file];
    const child = spawn(process.execPath, args, { cwd: repoRoot, env: { PATH: process.env.PATH, HOME: process.env.HOME, VIGIL_DATA_DIR: dataDir, VIGIL_LOG_LEVEL: 'warn', ...env }, stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    // Kill it once a few pieces are done and another is being written.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const done = receipts(join(dataDir, 'vigil.db'));
      if (done.done >= 2 && done.writing >= 1) break;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`ingest was not caught midway: ${JSON.stringify(done)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    await exited;

    // the same command again: the pieces done are skipped, the one cut short is written anew
    const rerun = await runVigil(['ingest', '--tenant', 'default', '--index', 'k', '--json', file], { dataDir, env });
    expect(rerun.code, rerun.stderr).toBe(0);
    const summary = JSON.parse(rerun.stdout).files[0];
    expect(summary.already_ingested).toBeGreaterThan(0);
    expect(summary.ingested + summary.already_ingested).toBe(all.length);
    expect(await counts(dataDir, 'default')).toEqual({ events: all.length, distinct: all.length });
  });
});

/** Receipts of the CLI's pieces by state, read from the store as another process would. */
function receipts(dbPath: string): { done: number; writing: number } {
  try {
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare('SELECT state, count(*) AS n FROM ingest_receipts GROUP BY state').all() as { state: string; n: number }[];
      return { done: rows.find((r) => r.state === 'done')?.n ?? 0, writing: rows.find((r) => r.state === 'writing')?.n ?? 0 };
    } finally {
      db.close();
    }
  } catch {
    return { done: 0, writing: 0 }; // not created yet
  }
}
