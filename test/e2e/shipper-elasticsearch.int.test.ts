/**
 * The Elasticsearch bulk API with the official client (`@elastic/elasticsearch`) against a Vigil
 * server on 127.0.0.1 (docs/shippers.md): the handshake, the bulk helper, per-item errors,
 * malformed bodies in Elasticsearch's error shape, and the `GET /` rule for browsers.
 */
import { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, openShipperServer, type ShipperServer } from '../support/shipper-server.js';

let s: ShipperServer;
let client: Client;

beforeAll(async () => {
  s = await openShipperServer({ env: { VIGIL_INGEST_BATCH_ROWS: '100', VIGIL_MAX_SHIPPER_BODY_BYTES: '200000' } });
  await s.createIndex('web');
  await s.createIndex('audit');
  client = new Client({ node: s.url, auth: { apiKey: Buffer.from(`acme:${s.key}`).toString('base64') } });
}, 120_000);
afterAll(async () => {
  await client?.close();
  await s?.close();
});

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/x-ndjson', ...headers }, body });

describe('the official Elasticsearch client', () => {
  it('reads the version document and the license', async () => {
    const info = await client.info();
    expect(info.version.number).toMatch(/^8\./);
    expect(info.tagline).toBe('You Know, for Search');
    const license = await client.license.get();
    expect(license.license.status).toBe('active');
  });

  it('bulk-indexes with the helper: every document stored once, with its own time', async () => {
    const docs = Array.from({ length: 250 }, (_, n) => ({ '@timestamp': new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), n, message: `GET /page/${n} 200` }));
    const dropped: unknown[] = [];
    const stats = await client.helpers.bulk({ datasource: docs, onDocument: () => ({ index: { _index: 'web' } }), onDrop: (d) => dropped.push(d), flushBytes: 4000 });
    expect(dropped).toEqual([]);
    expect(stats).toMatchObject({ total: 250, successful: 250, failed: 0 });
    const rows = await s.query('@index = web | stats count() as n, min(n) as lo, max(n) as hi, countdistinct(n) as d');
    expect(rows[0]).toMatchObject({ n: 250, lo: 0, hi: 249, d: 250 });
    const first = await s.query('@index = web n = 7');
    expect(first[0]?.['@svc.timestamp'] ?? first[0]?.['@scnr.timestamp']).toBeUndefined(); // not a column of the stored event
    expect(first[0]).toMatchObject({ n: 7, message: 'GET /page/7 200', '@timestamp': '2026-01-01T00:00:07.000Z' });
  });

  it('reports items of an index that does not exist as dropped with status 404, and stores the others', async () => {
    const dropped: { status: number; error: { type: string } }[] = [];
    const stats = await client.helpers.bulk({
      datasource: [{ k: 'good-1' }, { k: 'lost' }, { k: 'good-2' }],
      onDocument: (doc) => ({ create: { _index: doc.k === 'lost' ? 'no-such-index' : 'audit' } }),
      onDrop: (d) => dropped.push(d as never),
    });
    expect(stats).toMatchObject({ total: 3, successful: 2, failed: 1 });
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ status: 404, error: { type: 'index_not_found_exception' } });
    expect((await s.query('@index = audit | groupbycount k')).map((r) => r['k']).sort()).toEqual(['good-1', 'good-2']);
  });
});

describe('_bulk over plain HTTP', () => {
  it('answers errors: true with a per-item status for a source that is not JSON, and stores the rest', async () => {
    const body = [
      '{"index":{"_index":"audit","_id":"a1"}}',
      '{"k":"bulk-1"}',
      '{"create":{}}',
      '{"k": broken',
      '{"delete":{"_index":"audit","_id":"a1"}}',
      '{"update":{"_index":"audit","_id":"a1"}}',
      '{"doc":{"k":"x"}}',
      '{"index":{}}',
      '{"k":"bulk-2"}',
      '',
    ].join('\n');
    const r = await post('/audit/_bulk', body);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-elastic-product')).toBe('Elasticsearch');
    const answer = (await r.json()) as { errors: boolean; items: Record<string, { status: number; _id: string; _index: string; error?: { type: string } }>[] };
    expect(answer.errors).toBe(true);
    expect(answer.items.map((item) => Object.entries(item).map(([action, result]) => [action, result.status, result.error?.type ?? null])[0])).toEqual([
      ['index', 201, null],
      ['create', 400, 'document_parsing_exception'],
      ['delete', 400, 'illegal_argument_exception'],
      ['update', 400, 'illegal_argument_exception'],
      ['index', 201, null],
    ]);
    expect(answer.items[0]?.['index']).toMatchObject({ _id: 'a1', _index: 'audit', result: 'created' });
    const stored = (await s.query('@index = audit k: "bulk-*" | groupbycount k')).map((row) => row['k']).sort();
    expect(stored).toEqual(['bulk-1', 'bulk-2']);
  });

  it('refuses a body whose action line is not an action, in the Elasticsearch error shape, storing nothing', async () => {
    const before = (await s.query('@index = audit | count'))[0]?.['@q.count'];
    const r = await post('/_bulk', '{"index":{"_index":"audit"}}\n{"k":"never"}\n{"insert":{}}\n{"k":"x"}\n');
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ status: 400, error: { type: 'illegal_argument_exception', reason: expect.stringMatching(/Malformed action\/metadata line \[3\]/) } });
    expect((await s.query('@index = audit | count'))[0]?.['@q.count']).toBe(before);
  });

  it('takes Basic auth whose user names the tenant, and gzip bodies', async () => {
    const { gzipSync } = await import('node:zlib');
    const r = await fetch(`${s.url}/_bulk`, {
      method: 'POST',
      headers: { authorization: basicAuth('whatever', s.key), 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
      body: gzipSync('{"index":{"_index":"audit"}}\n{"k":"gzipped"}\n'),
    });
    expect(await r.json()).toMatchObject({ errors: false });
    expect(await s.query('@index = audit k = gzipped')).toHaveLength(1);
  });

  it('reads a tenant given by its name (default) as its id, in tenant_id and in the Basic user name', async () => {
    const defaultId = await s.h.runtime.services.tenants.resolve('default');
    expect(defaultId).not.toBe('default');
    await s.createIndex('named', defaultId);
    const key = await s.h.keyFor(s.tenant, defaultId); // two tenants: each request must name one
    const bulk = (path: string, authorization: string) =>
      fetch(`${s.url}${path}`, { method: 'POST', headers: { authorization, 'content-type': 'application/x-ndjson' }, body: '{"index":{"_index":"named"}}\n{"k":"by-name"}\n' });
    expect(await (await bulk('/_bulk?tenant_id=default', `Bearer ${key}`)).json()).toMatchObject({ errors: false });
    expect(await (await bulk('/_bulk', basicAuth('default', key))).json()).toMatchObject({ errors: false });
    const counted = await s.h.call('POST', '/v1/blocking_query', key, { tenant_id: 'default', query: '@index = named k = "by-name" | count', start_time: '1900-01-01T00:00:00Z', end_time: '2262-01-01T00:00:00Z' });
    expect(counted.body.results.rows[0].columns['@q.count']).toBe(2);
  });

  it('answers 401 without a key and 403 for a tenant the key does not hold, in the Elasticsearch shape', async () => {
    const anonymous = await fetch(`${s.url}/_bulk`, { method: 'POST', body: '{"index":{}}\n{}\n' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ status: 401, error: { type: 'security_exception' } });
    const other = await post('/_bulk?tenant_id=globex', '{"index":{"_index":"audit"}}\n{}\n');
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ status: 403, error: { type: 'security_exception' } });
  });

  it('answers 413 in the Elasticsearch shape past the body limit, with or without a length, storing nothing', async () => {
    const before = (await s.query('@index = audit | count'))[0]?.['@q.count'];
    const big = '{"index":{"_index":"audit"}}\n{"k":"too big","pad":"' + 'x'.repeat(1000) + '"}\n';
    const body = big.repeat(250); // about 260 KB
    const declared = await post('/_bulk', body);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ status: 413, error: { reason: expect.stringMatching(/exceeds 200000 bytes/) } });
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 250; i++) controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await fetch(`${s.url}/_bulk`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/x-ndjson' }, body: chunks, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await s.query('@index = audit | count')).toEqual([{ '@q.count': before }]);
  });

  it('answers the setup probes of Beats and Logstash harmlessly', async () => {
    const auth = { authorization: `Bearer ${s.key}` };
    expect((await fetch(`${s.url}/_index_template/filebeat-8.15.0`, { method: 'HEAD', headers: auth })).status).toBe(200);
    const put = await fetch(`${s.url}/_ilm/policy/filebeat`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: '{"policy":{}}' });
    expect(await put.json()).toEqual({ acknowledged: true });
    expect(await (await fetch(`${s.url}/_cluster/health`, { headers: auth })).json()).toMatchObject({ status: 'green' });
  });
});

describe('GET / and the console', () => {
  it('serves the version document to clients and not to a browser opening the page', async () => {
    const browser = await fetch(`${s.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(browser.headers.get('x-elastic-product')).toBeNull();
    expect(browser.status).not.toBe(200);
    const curl = await fetch(`${s.url}/`, { headers: { accept: '*/*', authorization: `Bearer ${s.key}` } });
    expect(curl.status).toBe(200);
    expect(await curl.json()).toMatchObject({ tagline: 'You Know, for Search' });
    const anonymousClient = await fetch(`${s.url}/`, { headers: { accept: 'application/json' } });
    expect(anonymousClient.status).toBe(401);
  });
});
