import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChdbEngine } from '../../src/engine/chdb/index.js';
import { call, runVigil, startVigilServer, type ServerProcess } from '../support/vigil-process.js';

// The foundation as a user meets it: `vigil serve` in its own process on a fresh data dir, the
// HTTP API, and the CLI beside it. Tests run in order and build on each other's state.
describe('vigil serve, the HTTP API and the CLI on one data dir', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-e2e-'));
  const files = mkdtempSync(join(tmpdir(), 'vigil-e2e-files-'));
  const env = { VIGIL_MAX_INGEST_BYTES: String(1_000_000) };
  let server: ServerProcess;
  let acmeKey: string;
  const acmeIndexIds = new Map<string, string>();

  beforeAll(async () => {
    server = await startVigilServer(dataDir, env);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  });

  it('prints the bootstrap admin key once and keeps it in a 0600 file', () => {
    expect(server.stdout()).toContain(server.bootstrapKey);
    expect(server.bootstrapKey).toMatch(/^vgl_[\w-]{32}$/);
    expect(statSync(join(dataDir, 'bootstrap-key')).mode & 0o777).toBe(0o600);
  });

  it('answers health, readiness, metrics and the OpenAPI document without a key', async () => {
    expect((await call(`${server.url}/healthz`)).status).toBe(200);
    const ready = await call(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ engine: 'ok', store: 'ok', data_dir: 'ok' });
    const openapi = await call(`${server.url}/openapi.json`);
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/v1/index', '/v1/index/{id}', '/v1/ingest']));
    const metrics = await call(`${server.url}/metrics`);
    expect(metrics.body).toContain('vigil_http_requests_total');
  });

  it('refuses /v1 requests without a key or with an unknown one (401)', async () => {
    const none = await call(`${server.url}/v1/index?tenant_id=default`);
    expect(none.status).toBe(401);
    expect(none.body.error).toMatch(/api key/);
    const unknown = await call(`${server.url}/v1/index?tenant_id=default`, { key: 'vgl_' + 'x'.repeat(32) });
    expect(unknown.status).toBe(401);
  });

  it('creates a tenant key with the CLI while the server runs, scoped to that tenant (403 elsewhere)', async () => {
    const created = await runVigil(['keys', 'create', '--tenant', 'acme', '--name', 'acme ci', '--json'], { dataDir });
    expect(created.code).toBe(0);
    acmeKey = JSON.parse(created.stdout).key;
    expect((await call(`${server.url}/v1/index?tenant_id=acme`, { key: acmeKey })).status).toBe(200);
    const other = await call(`${server.url}/v1/index?tenant_id=default`, { key: acmeKey });
    expect(other.status).toBe(403);
    expect(other.body.error).toContain('default');
    const listed = await runVigil(['keys', 'list', '--json'], { dataDir });
    const keys = JSON.parse(listed.stdout) as { name: string; prefix: string }[];
    expect(keys.map((k) => k.name)).toEqual(['bootstrap admin', 'acme ci']);
    expect(listed.stdout).not.toContain(acmeKey);
  });

  it('lists indexes page by page with stable opaque tokens, never the system indexes', async () => {
    for (const name of ['web', 'auth', 'cloud', 'dns', 'edr']) {
      const r = await runVigil(['index', 'create', name, '--tenant', 'acme', '--retention-days', '30', '--json'], { dataDir });
      expect(r.code, r.stderr).toBe(0);
      acmeIndexIds.set(name, JSON.parse(r.stdout).id);
    }
    const seen: string[] = [];
    let token: string | null = '';
    let pages = 0;
    while (token !== null) {
      const q = new URLSearchParams({ tenant_id: 'acme', 'pagination[page_size]': '2', ...(token ? { 'pagination[page_token]': token } : {}) });
      const page = await call(`${server.url}/v1/index?${q}`, { key: acmeKey });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.indexes.map((i: { name: string }) => i.name));
      token = page.body.pagination.next_page_token;
      pages++;
    }
    expect(seen).toEqual(['auth', 'cloud', 'dns', 'edr', 'web']);
    expect(pages).toBe(3);
    const bad = await call(`${server.url}/v1/index?tenant_id=acme&pagination[page_token]=nonsense`, { key: acmeKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('pagination[page_token]');
    const zero = await call(`${server.url}/v1/index?tenant_id=acme&pagination[page_size]=0`, { key: acmeKey });
    expect(zero.status).toBe(400);
    expect(zero.body.error).toContain('page_size');
    const missing = await call(`${server.url}/v1/index`, { key: acmeKey });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('tenant_id');
  });

  it('reads one index unwrapped, and answers 404 for other tenants and system indexes', async () => {
    const id = acmeIndexIds.get('web')!;
    const own = await call(`${server.url}/v1/index/${id}`, { key: acmeKey });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id, name: 'web', description: '', retention_days: 30 });
    expect((await call(`${server.url}/v1/index/${id}`, { key: server.bootstrapKey })).status).toBe(200);
    const outsider = JSON.parse((await runVigil(['keys', 'create', '--tenant', 'globex', '--json'], { dataDir })).stdout).key as string;
    expect((await call(`${server.url}/v1/index/${id}`, { key: outsider })).status).toBe(404);
    const db = new Database(join(dataDir, 'vigil.db'), { readonly: true });
    const system = db.prepare("SELECT id, name FROM indexes WHERE tenant_id = 'acme' AND kind = 'system' ORDER BY name").all() as { id: string; name: string }[];
    db.close();
    expect(system.map((s) => s.name)).toEqual(['_audit', '_detections']);
    for (const s of system) expect((await call(`${server.url}/v1/index/${s.id}`, { key: acmeKey })).status).toBe(404);
    expect((await call(`${server.url}/v1/index/not-a-uuid`, { key: acmeKey })).status).toBe(404);
  });

  it('ingests NDJSON over HTTP, reporting bad lines by number and keeping the good ones', async () => {
    const body = ['{"@timestamp":"2026-11-20T10:00:00Z","msg":"one"}', '{"msg": oops}', '{"msg":"two","n":2}', '[1,2]', '', '{"msg":"three"}'].join('\n');
    const r = await call(`${server.url}/v1/ingest?tenant_id=acme&index=web`, { method: 'POST', key: acmeKey, body, headers: { 'content-type': 'application/x-ndjson' } });
    expect(r.status).toBe(200);
    expect(r.body.ingested).toBe(3);
    expect(r.body.rejected).toBe(2);
    expect(r.body.errors.map((e: { line: number }) => e.line)).toEqual([2, 4]);
  });

  it('ingests gzip bodies, refuses oversize ones (413), unknown indexes (404) and foreign tenants (403)', async () => {
    // Epoch seconds from the last hour: the index keeps 30 days and the restart below sweeps retention.
    const recent = Math.floor(Date.now() / 1000) - 3600;
    const lines = Array.from({ length: 500 }, (_, i) => JSON.stringify({ ts: recent + i, i })).join('\n');
    const gz = await call(`${server.url}/v1/ingest?tenant_id=acme&index=auth`, {
      method: 'POST',
      key: acmeKey,
      body: gzipSync(lines),
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
    });
    expect(gz.status).toBe(200);
    expect(gz.body).toMatchObject({ ingested: 500, rejected: 0 });
    const big = '{"pad":"' + 'x'.repeat(1_200_000) + '"}';
    const tooBig = await call(`${server.url}/v1/ingest?tenant_id=acme&index=auth`, { method: 'POST', key: acmeKey, body: big });
    expect(tooBig.status).toBe(413);
    const unknown = await call(`${server.url}/v1/ingest?tenant_id=acme&index=nope`, { method: 'POST', key: acmeKey, body: '{}' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('nope');
    expect((await call(`${server.url}/v1/ingest?tenant_id=default&index=web`, { method: 'POST', key: acmeKey, body: '{}' })).status).toBe(403);
  });

  it('ingests a JSON array, a CloudTrail file and plain text with the CLI through the running server', async () => {
    writeFileSync(join(files, 'array.json'), JSON.stringify([{ a: 1, time: '2026-11-20T01:00:00Z' }, { a: 2 }, 'not an object']));
    writeFileSync(join(files, 'trail.json'), JSON.stringify({ Records: [{ eventTime: '2026-11-20T02:00:00Z', eventName: 'ConsoleLogin' }, { eventTime: '2026-11-20T02:00:01Z', eventName: 'GetObject' }] }));
    writeFileSync(join(files, 'syslog.txt'), 'Nov 20 03:00:00 host sshd[1]: Failed password for root\nNov 20 03:00:01 host sshd[1]: Accepted password for alice\n');
    const r = await runVigil(['ingest', '--tenant', 'acme', '--index', 'cloud', '--json', join(files, 'array.json'), join(files, 'trail.json'), join(files, 'syslog.txt')], { dataDir, env: { VIGIL_API_KEY: acmeKey } });
    const summary = JSON.parse(r.stdout);
    expect(summary.files.map((f: { ingested: number; rejected: number }) => [f.ingested, f.rejected])).toEqual([[2, 1], [2, 0], [2, 0]]);
    // the server's reader and decoded bytes, as an in-process ingest reports them
    expect(summary.files.map((f: { format: string; gzip: boolean }) => [f.format, f.gzip])).toEqual([['json-array', false], ['cloudtrail', false], ['text', false]]);
    expect(summary.files[2].bytes).toBe(Buffer.byteLength('Nov 20 03:00:00 host sshd[1]: Failed password for root\nNov 20 03:00:01 host sshd[1]: Accepted password for alice\n'));
    expect(r.code).toBe(3);
  });

  it('keeps keys, indexes and events across a restart, and ingests in process while stopped', async () => {
    expect(await server.stop()).toBe(0);
    const lines = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ '@timestamp': new Date(Date.UTC(2026, 10, 19, 0, 0, i)).toISOString(), n: i, host: `h${i % 7}` }));
    writeFileSync(join(files, 'edr.ndjson.gz'), gzipSync(lines.join('\n')));
    const offline = await runVigil(['ingest', '--tenant', 'acme', '--index', 'edr', '--quiet', join(files, 'edr.ndjson.gz')], { dataDir });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toContain('1,000 ingested');
    expect(offline.stdout).toContain(', read as gzip of ndjson)');

    server = await startVigilServer(dataDir, env);
    expect(server.stdout()).not.toContain('shown only this once');
    const list = await call(`${server.url}/v1/index?tenant_id=acme`, { key: acmeKey });
    expect(list.body.data.indexes).toHaveLength(5);
    expect(await server.stop()).toBe(0);

    const engine = new ChdbEngine({ path: join(dataDir, 'engine'), poolSize: 1 });
    try {
      await engine.init();
      const counts = await engine.query<{ idx: string; c: string }>("SELECT idx, toString(count()) AS c FROM logs WHERE tenant = 'acme' GROUP BY idx");
      const byName = Object.fromEntries([...acmeIndexIds].map(([name, id]) => [name, Number(counts.rows.find((r) => r.idx === id)?.c ?? 0)]));
      expect(byName).toEqual({ web: 3, auth: 500, cloud: 6, dns: 0, edr: 1000 });
      const raw = await engine.query<{ raw: string }>(`SELECT raw FROM logs WHERE tenant = 'acme' AND idx = '${acmeIndexIds.get('web')}' ORDER BY seq LIMIT 1`);
      expect(raw.rows[0]?.raw).toBe('{"@timestamp":"2026-11-20T10:00:00Z","msg":"one"}');
      const audit = await engine.query<{ action: string }>(
        "SELECT DISTINCT JSONExtractString(raw, 'action') AS action FROM logs WHERE tenant = 'acme' AND source_type = 'vigil:audit' ORDER BY action",
      );
      expect(audit.rows.map((r) => r.action)).toEqual(expect.arrayContaining(['api_key.create', 'index.create', 'ingest']));
    } finally {
      await engine.close();
    }
  });
});
