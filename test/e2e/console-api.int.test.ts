/**
 * The console's endpoints through HTTP on the real engine and store (docs/api.md): who a key is,
 * index statistics, fields and settings, a field's top values, the event histogram (progress,
 * cancel, limits), test alerts to a webhook stand-in on 127.0.0.1, and the admin-only keys.
 * Every one refuses bad input with a 400 naming the field, and answers another tenant's ids 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/services/index.js';
import { runVigil } from '../../src/cli/testing/run-vigil.js';
import { ManualClock } from '../../src/core/index.js';
import { startWebhookReceiver, type StandInReceiver } from '../../src/sinks/testing/stand-in-receiver.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

const base = Date.parse('2026-11-20T10:00:00Z');
const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
const day = { start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z' };
let h: ApiHarness;
let acme: string;
let other: string;
let admin: string;
let webhook: StandInReceiver;
let webId: string;

// 300 events every 10 s from 10:00, then 3 without a time of their own (stamped at ingest).
const users = ['alice', 'bob', 'alice', 'carol'];
const events = [
  ...Array.from({ length: 300 }, (_, n) =>
    JSON.stringify({ ts: new Date(base + n * 10_000).toISOString(), n, user: users[n % 4], status: n % 10 === 0 ? 500 : 200, ok: n % 10 !== 0, ...(n < 5 ? { 'odd key': 'x y' } : {}) }),
  ),
  ...[1, 2, 3].map((n) => JSON.stringify({ message: `no time ${n}`, user: 'dave' })),
];

beforeAll(async () => {
  webhook = await startWebhookReceiver();
  h = await openApiHarness({ clock, env: { VIGIL_MAX_CONCURRENT_QUERIES_PER_TENANT: '2', VIGIL_ALLOW_PRIVATE_DESTINATIONS: 'true', VIGIL_DELIVERY_TIMEOUT_S: '2' } });
  acme = await h.keyFor('acme');
  other = await h.keyFor('other');
  admin = (await h.runtime.services.keys.create({ name: 'console admin', tenants: [], admin: true }, cliActor)).secret;
  await h.ingest('acme', 'web', events);
  await h.ingest('other', 'web', [JSON.stringify({ ts: new Date(base).toISOString(), secret: 1 })]);
  const list = await h.call('GET', '/v1/index?tenant_id=acme', acme);
  webId = list.body.data.indexes[0].id;
}, 120_000);
afterAll(async () => {
  await h?.close();
  await webhook?.stop();
});

describe('GET /v1/me', () => {
  it('answers the key and its tenants; an admin key sees every tenant', async () => {
    const me = await h.call('GET', '/v1/me', acme);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ api_key: { id: expect.any(String), name: 'acme', prefix: acme.slice(0, 10), admin: false }, tenants: [{ id: 'acme', name: 'acme' }] });
    const all = await h.call('GET', '/v1/me', admin);
    expect(all.body.api_key.admin).toBe(true);
    expect(all.body.tenants.map((t: any) => t.id)).toEqual(['acme', 'other']);
    expect((await h.call('GET', '/v1/me', 'vgl_nope')).status).toBe(401);
  });
});

describe('index stats, fields and settings', () => {
  it('stats: events, exact first and last times, events without a time, size on disk', async () => {
    const r = await h.call('GET', `/v1/index/${webId}/stats`, acme);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      index_id: webId,
      name: 'web',
      events: 303,
      first_event_time: '2026-11-20T10:00:00.000000000Z',
      last_event_time: '2026-11-21T12:00:00.000000000Z',
      bytes_on_disk: expect.any(Number),
      events_without_time: 3,
      retention_days: null,
    });
    expect(r.body.bytes_on_disk).toBeGreaterThan(0);
  });

  it('fields: every path with its types and rows, most common first; a range reads its whole days', async () => {
    const all = await h.call('GET', `/v1/index/${webId}/fields`, acme);
    expect(all.status).toBe(200);
    expect(all.body.events).toBe(303);
    expect(all.body.start_time).toBeNull();
    expect(all.body.fields).toEqual([
      { path: 'user', types: ['string'], rows: 303 },
      { path: 'n', types: ['int64'], rows: 300 },
      { path: 'ok', types: ['string'], rows: 300 },
      { path: 'status', types: ['int64'], rows: 300 },
      { path: 'ts', types: ['string'], rows: 300 },
      { path: 'odd key', types: ['string'], rows: 5 },
      { path: 'message', types: ['string'], rows: 3 },
    ]);
    const ranged = await h.call('GET', `/v1/index/${webId}/fields?start_time=2026-11-20T10:00:00Z&end_time=2026-11-20T11:00:00Z`, acme);
    expect(ranged.body).toMatchObject({ events: 300, start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z' });
    expect(ranged.body.fields.map((f: any) => f.path)).not.toContain('message');
  });

  it('PUT changes retention with the checks of vigil index update', async () => {
    const r = await h.call('PUT', `/v1/index/${webId}`, acme, { retention_days: 30, description: 'web logs' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: webId, retention_days: 30, description: 'web logs' });
    expect((await h.call('GET', `/v1/index/${webId}/stats`, acme)).body.retention_days).toBe(30);
    expect((await h.call('PUT', `/v1/index/${webId}`, acme, { retention_days: null })).body.retention_days).toBeNull();
  });

  it.each([
    ['GET', '/fields?start_time=2026-11-20T10:00:00Z', undefined, /end_time/],
    ['GET', '/fields?start_time=yesterday&end_time=2026-11-20T11:00:00Z', undefined, /start_time/],
    ['GET', '/stats?surprise=1', undefined, /unknown field surprise/],
    ['PUT', '', { retention_days: 0 }, /retention_days/],
    ['PUT', '', { retention_days: '30' }, /retention_days/],
    ['PUT', '', { source_type: 'has spaces' }, /source_type/],
    ['PUT', '', { name: 'renamed' }, /unknown field name/],
  ] as const)('%s %s %j answers 400 naming the field', async (method, path, body, message) => {
    const r = await h.call(method, `/v1/index/${webId}${path}`, acme, body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });

  it('another tenant’s index is 404 for each, a tenant the key does not hold 403', async () => {
    for (const [method, path, body] of [
      ['GET', '/stats', undefined],
      ['GET', '/fields', undefined],
      ['PUT', '', { retention_days: 1 }],
    ] as const) {
      expect((await h.call(method, `/v1/index/${webId}${path}`, other, body)).status).toBe(404);
      expect((await h.call(method, `/v1/index/00000000-0000-4000-8000-000000000000${path}`, acme, body)).status).toBe(404);
    }
    expect((await h.call('GET', `/v1/index/${webId}/stats?tenant_id=other`, acme)).status).toBe(403);
    expect((await h.call('GET', `/v1/index/${webId}/stats?tenant_id=other`, admin)).status).toBe(404);
    expect((await h.call('GET', `/v1/index/${webId}/stats?tenant_id=acme`, admin)).status).toBe(200);
  });
});

describe('POST /v1/field_values', () => {
  const values = (body: Record<string, unknown>, key = acme) => h.call('POST', '/v1/field_values', key, { ...day, ...body });

  it('answers the top values, how many events hold the field, and the rest', async () => {
    const r = await values({ query: '*', field: 'user', limit: 2 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ field: 'user', events: 300, values: [{ value: 'alice', count: 150 }, { value: 'bob', count: 75 }], other_count: 75 });
    const numbers = await values({ query: 'user: alice', field: 'status' });
    expect(numbers.body).toEqual({ field: 'status', events: 150, values: [{ value: 200, count: 120 }, { value: 500, count: 30 }], other_count: 0 });
    expect((await values({ query: '*', field: 'odd key' })).body).toMatchObject({ events: 5, values: [{ value: 'x y', count: 5 }] });
  });

  it('takes a search’s row-wise commands, and the filter alone of an aggregation', async () => {
    expect((await values({ query: '* | where status == 500', field: 'user' })).body.events).toBe(30);
    expect((await values({ query: '* | eval u = upper(user)', field: 'u', limit: 1 })).body).toMatchObject({ events: 300, values: [{ value: 'ALICE', count: 150 }] });
    expect((await values({ query: 'user: bob | stats count() by status', field: 'status' })).body.events).toBe(75);
  });

  it.each([
    [{ limit: 101 }, /limit/],
    [{ limit: 0 }, /limit/],
    [{ field: '' }, /field/],
    [{ start_time: 'soon' }, /start_time/],
    [{ surprise: true }, /unknown field surprise/],
  ])('refuses %j with 400 naming the field', async (change, message) => {
    const r = await values({ query: '*', field: 'user', ...change });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });

  it('a query error points into the query’s own text', async () => {
    const r = await values({ query: 'user: alice | stats nosuch()', field: 'user' });
    expect(r.status).toBe(400);
    expect(r.body.diagnostics[0]).toMatchObject({ line: 1, column: 21 });
  });

  it('stays within the tenant', async () => {
    expect((await values({ query: '*', field: 'secret' }, acme)).body.events).toBe(0);
    expect((await values({ query: '*', field: 'user', tenant_id: 'other' }, acme)).status).toBe(403);
  });
});

describe('histogram', () => {
  async function finished(qrId: string, key = acme): Promise<any> {
    for (;;) {
      const p = await h.call('GET', `/v1/query_progress/${qrId}`, key);
      if (p.status !== 200 || p.body.is_completed) return p;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const start = (body: Record<string, unknown>, key = acme) => h.call('POST', '/v1/start_histogram', key, { ...day, ...body });

  it('counts per bucket over the range narrowed to the data, polled like a query', async () => {
    const r = await start({ query: '*', max_buckets: 24, end_time: '2026-11-20T10:50:00Z' });
    expect(r.status).toBe(200);
    // The index's events start at 10:00: fifty minutes in at most 24 buckets is 5 minutes each.
    expect(r.body).toEqual({ qr_id: expect.any(String), bucket_s: 300, start_time: '2026-11-20T10:00:00Z', end_time: '2026-11-20T10:50:00Z' });
    const p = await finished(r.body.qr_id);
    expect(p.body.results.column_ordering).toEqual(['@svc.bucket', 'count']);
    expect(p.body.results.rows).toEqual(Array.from({ length: 10 }, (_, i) => ({ '@svc.bucket': new Date(base + i * 300_000).toISOString().replace('.000Z', 'Z'), count: 30 })));
    expect(p.body.metadata.n_bytes_scanned).toBeGreaterThan(0);
  });

  it('counts a search’s rows, and the filter’s events for an aggregation', async () => {
    const total = async (query: string) => (await finished((await start({ query })).body.qr_id)).body.results.rows.reduce((sum: number, row: any) => sum + row.count, 0);
    expect(await total('user: alice')).toBe(150);
    expect(await total('* | where status == 500')).toBe(30);
    expect(await total('user: bob | count')).toBe(75);
  });

  it('narrows the end to the data too, to its last event', async () => {
    const r = await start({ query: '*', start_time: '2026-11-21T11:00:00Z', end_time: '2026-11-22T00:00:00Z' });
    // One hour and a nanosecond: 121 buckets of 30 s is one too many.
    expect(r.body).toMatchObject({ bucket_s: 60, start_time: '2026-11-21T11:00:00Z', end_time: '2026-11-21T12:00:00.000000001Z' });
    expect((await finished(r.body.qr_id)).body.results.rows).toEqual([{ '@svc.bucket': '2026-11-21T12:00:00Z', count: 3 }]);
  });

  it('keeps the asked range’s buckets when it holds no events, with no rows', async () => {
    const r = await start({ query: '*', start_time: '2026-11-10T00:00:00Z', end_time: '2026-11-11T00:00:00Z' });
    expect(r.body.bucket_s).toBe(900);
    expect((await finished(r.body.qr_id)).body.results.rows).toEqual([]);
  });

  it.each([
    [{ max_buckets: 1 }, /max_buckets/],
    [{ max_buckets: 1001 }, /max_buckets/],
    [{ max_rows: 10 }, /unknown field max_rows/],
    [{ end_time: '2026-11-19T00:00:00Z' }, /start_time must be before end_time/],
    [{ query: 'user: (' }, /never closed at 1:7/],
  ])('refuses %j with 400', async (change, message) => {
    const r = await start({ query: '*', ...change });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });

  it('is cancelled by cancel_query, counts against the tenant’s limit, and is hidden from other tenants', async () => {
    // Hold the bucket statements so the histograms stay running; the engine is the real one.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const query = h.engine.query.bind(h.engine);
    const signals: AbortSignal[] = [];
    h.engine.query = (async (sql: string, options?: any) => {
      if (sql.includes('toInt128')) {
        if (options?.signal) signals.push(options.signal);
        await gate;
      }
      return query(sql, options);
    }) as typeof h.engine.query;
    try {
      const first = await start({ query: '*' });
      const second = await start({ query: 'user: bob' });
      const third = await start({ query: '*' });
      expect(third.status).toBe(429);
      expect(third.headers['retry-after']).toBe('1');
      expect((await h.call('GET', `/v1/query_progress/${first.body.qr_id}`, other)).status).toBe(404);
      const running = await h.call('GET', `/v1/query_progress/${first.body.qr_id}`, acme);
      expect(running.body.is_completed).toBe(false);
      while (signals.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      expect((await h.call('POST', `/v1/cancel_query/${first.body.qr_id}`, acme)).status).toBe(204);
      // The cancelled histogram's statement is aborted in the engine; the other's is not.
      expect(signals.map((signal) => signal.aborted).sort()).toEqual([false, true]);
      const cancelled = await h.call('GET', `/v1/query_progress/${first.body.qr_id}`, acme);
      expect(cancelled.body).toMatchObject({ is_completed: true, results: { rows: [] }, metadata: { cancelled: true } });
      release();
      expect((await finished(second.body.qr_id)).body.results.rows.length).toBeGreaterThan(0);
    } finally {
      release();
      h.engine.query = query;
    }
  });
});

describe('POST /v1/event_sink/{id}/test', () => {
  it('sends a marked test alert now and answers what the receiver said', async () => {
    const created = await h.call('POST', '/v1/event_sink', acme, { tenant_id: 'acme', name: 'ops hook', description: '', event_sink_args: { Webhook: { url: `${webhook.url}/hook` } } });
    const id = created.body.event_sink.id;
    webhook.requests.length = 0;
    const r = await h.call('POST', `/v1/event_sink/${id}/test`, acme);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ delivered: true, outcome: 'delivered', http_status: 200, latency_ms: expect.any(Number), error: null });
    expect(webhook.requests).toHaveLength(1);
    const sent = JSON.parse(webhook.requests[0]!.body);
    expect(sent).toMatchObject({ name: '[TEST] Vigil test alert', severity: 'Informational', detection_rule_id: '00000000-0000-0000-0000-000000000000', tags: ['vigil.test'] });
    expect(sent.results_table.rows).toEqual([{ message: 'test alert from Vigil', event_sink: 'ops hook' }]);

    webhook.answerNext({ status: 503 });
    expect((await h.call('POST', `/v1/event_sink/${id}/test`, acme)).body).toMatchObject({ delivered: false, outcome: 'retryable', http_status: 503, error: expect.any(String) });
    // Nothing is stored as an alert.
    expect((await h.call('GET', '/v1/alert?tenant_id=acme', acme)).body.data.alerts).toEqual([]);
    expect((await h.call('POST', `/v1/event_sink/${id}/test`, other)).status).toBe(404);

    // vigil sinks test: the same service from the command line.
    const cli = (...argv: string[]) => runVigil(['sinks', 'test', id, ...argv], { openServices: async () => ({ services: h.runtime.services, close: async () => {} }) });
    expect(await cli('--tenant', 'acme')).toMatchObject({ status: 0, out: expect.stringMatching(/^delivered: HTTP 200 in \d+ ms\n$/) });
    webhook.answerNext({ status: 410 });
    const refused = await cli('--tenant', 'acme', '--json');
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.out)).toMatchObject({ delivered: false, outcome: 'permanent', http_status: 410 });
    expect((await cli('--tenant', 'other')).status).toBe(1);
  });
});

describe('API keys (admin keys only)', () => {
  it('lists without secrets, creates with the secret shown once, revokes; others get 403', async () => {
    expect((await h.call('GET', '/v1/api_key', acme)).status).toBe(403);
    expect((await h.call('POST', '/v1/api_key', acme, { tenant_ids: ['acme'] })).status).toBe(403);
    const created = await h.call('POST', '/v1/api_key', admin, { name: 'ci', tenant_ids: ['newt'] });
    expect(created.status).toBe(200);
    expect(created.body.api_key).toEqual({ id: expect.any(String), name: 'ci', prefix: created.body.key.slice(0, 10), admin: false, tenant_ids: ['newt'], created_at: expect.any(String), last_used_at: null, revoked_at: null });
    expect((await h.call('GET', '/v1/me', created.body.key)).body.tenants).toEqual([{ id: 'newt', name: 'newt' }]);
    const list = await h.call('GET', '/v1/api_key', admin);
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    expect(JSON.stringify(list.body)).not.toMatch(/hash/);
    expect(list.body.data.api_keys.map((k: any) => k.name)).toContain('ci');
    const revoked = await h.call('DELETE', `/v1/api_key/${created.body.api_key.id}`, admin);
    expect(revoked.body.api_key.revoked_at).toEqual(expect.any(String));
    expect((await h.call('GET', '/v1/me', created.body.key)).status).toBe(401);
    expect((await h.call('DELETE', `/v1/api_key/${created.body.api_key.id}`, admin)).status).toBe(404);
    const me = await h.call('GET', '/v1/me', admin);
    expect((await h.call('DELETE', `/v1/api_key/${me.body.api_key.id}`, admin)).status).toBe(409);
  });

  it.each([
    [{}, /tenant_ids/],
    [{ admin: true, tenant_ids: ['a'] }, /exactly one/],
    [{ tenant_ids: [] }, /tenant_ids/],
    [{ tenant_ids: ['bad tenant!'] }, /tenant/],
    [{ admin: 'yes' }, /admin/],
  ])('refuses %j with 400', async (body, message) => {
    const r = await h.call('POST', '/v1/api_key', admin, body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });
});

describe('OpenAPI', () => {
  it('documents every console endpoint', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['/v1/me', '/v1/index/{id}/stats', '/v1/index/{id}/fields', '/v1/field_values', '/v1/start_histogram', '/v1/detection_rule_preview', '/v1/event_sink/{id}/test', '/v1/api_key', '/v1/api_key/{id}', '/v1/detection_rule/{id}/yaml']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(Object.keys(doc.paths['/v1/index/{id}'])).toContain('put');
  });
});
