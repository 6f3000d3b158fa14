/**
 * The HTTP edge every /v1 route shares: the key is checked before anything in the request is
 * read, JSON bodies are validated with their types as sent (query strings still read "10" as a
 * number), bodiless POSTs take an empty JSON body, and whatever Fastify or Node would answer on
 * their own (a long path parameter, a malformed URL or request, bad JSON) answers the
 * `{"error": "..."}` envelope without echoing the request.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

let h: ApiHarness;
let acme: string;
const range = { start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z' };

beforeAll(async () => {
  h = await openApiHarness();
  acme = await h.keyFor('acme');
  await h.ingest('acme', 'web', [JSON.stringify({ ts: '2026-11-20T10:00:00Z', msg: 'hello' })]);
}, 120_000);
afterAll(async () => h?.close());

/** A request as a client writes it: any headers, a raw payload. */
async function send(method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: string) {
  const response = await h.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  return { status: response.statusCode, text: response.body, body: response.body === '' ? null : response.json() };
}

const json = { 'content-type': 'application/json' };

/** The API on a real socket on 127.0.0.1 (listening from the first test that needs one on). */
async function listening(): Promise<string> {
  if (!h.app.server.listening) await h.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
}

describe('the api key is checked before the request is read', () => {
  const requests: [string, 'GET' | 'POST' | 'PUT', string, string | undefined, Record<string, string>][] = [
    ['a body of the wrong shape', 'POST', '/v1/blocking_query', '{"query":1}', json],
    ['an empty object', 'POST', '/v1/blocking_query', '{}', json],
    ['a body that is not JSON', 'POST', '/v1/start_query', '{bad', json],
    ['an empty JSON body', 'POST', '/v1/blocking_query', '', json],
    ['an unsupported content type', 'POST', '/v1/blocking_query', 'query=*', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['a body over the size limit', 'POST', '/v1/blocking_query', `{"query":"${'x'.repeat(2 << 20)}"}`, json],
    ['a rule body missing every field', 'POST', '/v1/detection_rule', '{}', json],
    ['an update without its fields', 'PUT', '/v1/event_sink/x', '{}', json],
    ['an update of an id over its bound', 'PUT', `/v1/event_sink/${'x'.repeat(300)}`, '{}', json],
    ['an ingest without its parameters', 'POST', '/v1/ingest', '{"a":1}', { 'content-type': 'application/x-ndjson' }],
    ['a list without its tenant', 'GET', '/v1/index', undefined, {}],
    ['a progress poll', 'GET', '/v1/query_progress/q', undefined, {}],
    ['a progress poll of a very long id', 'GET', `/v1/query_progress/${'q'.repeat(500)}`, undefined, {}],
  ];

  it.each(requests)('%s answers 401 without a key and with an unknown one', async (_what, method, url, payload, headers) => {
    for (const authorization of [undefined, 'Bearer wrong', 'Basic abc']) {
      const r = await send(method, url, { ...headers, ...(authorization ? { authorization } : {}) }, payload);
      expect(r.status, `${authorization ?? 'no key'}: ${r.text.slice(0, 200)}`).toBe(401);
      expect(r.body).toEqual({ error: expect.stringMatching(/api key/) });
    }
  });

  it('still answers 403 for a tenant the key does not hold, and 400 for a bad body of its own tenant', async () => {
    const foreign = await h.call('POST', '/v1/blocking_query', acme, { tenant_id: 'other', query: '*', ...range });
    expect(foreign.status).toBe(403);
    const bad = await h.call('POST', '/v1/blocking_query', acme, { query: '*', ...range, max_rows: 0 });
    expect(bad).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^body\.max_rows/) } });
  });
});

describe('JSON bodies are validated as sent', () => {
  it.each([
    [{ scan_back_to_front: null }, 'body.scan_back_to_front must be boolean'],
    [{ scan_back_to_front: 'false' }, 'body.scan_back_to_front must be boolean'],
    [{ scan_back_to_front: 0 }, 'body.scan_back_to_front must be boolean'],
    [{ max_rows: true }, 'body.max_rows must be integer'],
    [{ max_rows: null }, 'body.max_rows must be integer'],
    [{ max_rows: '10' }, 'body.max_rows must be integer'],
    [{ max_bytes: '2097152' }, 'body.max_bytes must be integer'],
    [{ query: 5 }, 'body.query must be string'],
    [{ query: true }, 'body.query must be string'],
    [{ query: ['*'] }, 'body.query must be string'],
    [{ start_time: 20261120 }, 'body.start_time must be string'],
    [{ tenant_id: ['acme'] }, 'body.tenant_id must be string'],
  ])('refuses %j with a 400 naming the field and the type', async (change, error) => {
    for (const endpoint of ['/v1/blocking_query', '/v1/start_query']) {
      const r = await h.call('POST', endpoint, acme, { query: '*', ...range, ...change });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error });
    }
  });

  it('takes the same values with their JSON types', async () => {
    const r = await h.call('POST', '/v1/blocking_query', acme, { query: '*', ...range, max_rows: 10, max_bytes: 2 << 20, scan_back_to_front: false, tenant_id: 'acme' });
    expect(r.status).toBe(200);
    expect(r.body.results.rows.map((row: any) => row.columns.msg)).toEqual(['hello']);
  });

  it('refuses a rule or sink body field of the wrong JSON type', async () => {
    const sink = await h.call('POST', '/v1/event_sink', acme, { tenant_id: 'acme', name: 7, description: 'd', event_sink_args: { Webhook: { url: 'https://example.com/hook' } } });
    expect(sink).toMatchObject({ status: 400, body: { error: 'body.name must be string' } });
    const rule = await h.call('POST', '/v1/detection_rule', acme, {
      tenant_id: 'acme',
      name: 'r',
      description: 'd',
      time_range_s: '3600',
      run_frequency_s: 3600,
      enabled_state_override: 'Paused',
      severity: 'Low',
      query_text: '*',
      event_sink_ids: [],
    });
    expect(rule).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^body\.time_range_s must be /) } });
  });

  it('still reads query string parameters from text', async () => {
    const list = await h.call('GET', '/v1/index?tenant_id=acme&pagination[page_size]=10', acme);
    expect(list.status).toBe(200);
    expect(list.body.data.indexes.map((i: any) => i.name)).toEqual(['web']);
    const started = await h.call('POST', '/v1/start_query', acme, { query: '*', ...range });
    for (const show of ['false', 'true']) {
      expect((await h.call('GET', `/v1/query_progress/${started.body.qr_id}?show_intermediate_results=${show}`, acme)).status).toBe(200);
    }
    const wrong = await h.call('GET', `/v1/query_progress/${started.body.qr_id}?show_intermediate_results=maybe`, acme);
    expect(wrong).toMatchObject({ status: 400, body: { error: 'querystring.show_intermediate_results must be boolean' } });
  });

  it('reads a boolean parameter as Python and other clients write it: True/False, TRUE/FALSE, 1/0', async () => {
    const ingest = (index: string, createIndex: string) =>
      send('POST', `/v1/ingest?tenant_id=acme&index=${index}&create_index=${createIndex}`, { authorization: `Bearer ${acme}`, 'content-type': 'application/x-ndjson' }, '{"msg":"x"}\n');
    for (const no of ['False', 'FALSE', '0', 'false']) {
      expect(await ingest(`refused-${no}`, no)).toMatchObject({ status: 404 });
    }
    for (const yes of ['True', 'TRUE', '1', 'true']) {
      expect(await ingest(`made-${yes}`, yes)).toMatchObject({ status: 200, body: { ingested: 1 } });
    }
    const names = (await h.call('GET', '/v1/index?tenant_id=acme', acme)).body.data.indexes.map((i: { name: string }) => i.name);
    expect(names.filter((n: string) => /^(made|refused)-/.test(n)).sort()).toEqual(['made-1', 'made-TRUE', 'made-True', 'made-true']);
  });

  it('takes a list call\'s tenant and paging from a GET body, as the published SDK sends them', async () => {
    const rule = (name: string) =>
      h.call('POST', '/v1/detection_rule', acme, { tenant_id: 'acme', name, description: '', query_text: 'msg: x', time_range_s: 300, run_frequency_s: 60, enabled_state_override: 'Paused', severity: 'Low', event_sink_ids: [] });
    for (const name of ['first', 'second']) expect((await rule(name)).status).toBe(200);
    // Over a real connection: the body of a GET is read from the socket, as the SDK's requests sends it.
    const address = await listening();
    const list = (body: unknown) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const payload = JSON.stringify(body);
        const req = request(`${address}/v1/detection_rule`, { method: 'GET', headers: { authorization: `Bearer ${acme}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        });
        req.on('error', reject);
        req.end(payload);
      });
    const page = await list({ tenant_id: 'acme', pagination: { page_size: 1 } });
    expect(page.status).toBe(200);
    expect(page.body.data.detection_rules).toHaveLength(1);
    const rest = await list({ tenant_id: 'acme', pagination: { page_size: 1, page_token: page.body.pagination.next_page_token } });
    expect([...page.body.data.detection_rules, ...rest.body.data.detection_rules].map((r: { name: string }) => r.name).sort()).toEqual(['first', 'second']);
    expect((await list({ tenant_id: 'other' })).status).toBe(403);
  });
});

describe('POST endpoints without a body', () => {
  const keyed = () => ({ authorization: `Bearer ${acme}` });

  it('cancel_query answers 204 with Content-Type: application/json and no body, or with {}', async () => {
    const started = await h.call('POST', '/v1/start_query', acme, { query: '*', ...range });
    for (const id of [started.body.qr_id, 'no-such-query']) {
      expect((await send('POST', `/v1/cancel_query/${id}`, { ...keyed(), ...json }, '')).status).toBe(204);
      expect((await send('POST', `/v1/cancel_query/${id}`, { ...keyed(), ...json }, '{}')).status).toBe(204);
      expect((await send('POST', `/v1/cancel_query/${id}`, keyed())).status).toBe(204);
    }
  });

  it('alert resend reads no body either: an unknown alert is its 404, not a 400 about the body', async () => {
    const r = await send('POST', '/v1/alert/00000000-0000-4000-8000-000000000000/resend', { ...keyed(), ...json }, '');
    expect(r.status).toBe(404);
  });

  it('an endpoint that takes a body still refuses an empty one', async () => {
    const r = await send('POST', '/v1/blocking_query', { ...keyed(), ...json }, '');
    expect(r).toMatchObject({ status: 400, body: { error: 'request body is empty; send a JSON object' } });
  });
});

describe('errors Fastify and Node would write themselves', () => {
  const keyed = () => ({ authorization: `Bearer ${acme}` });

  it('a query id far longer than any: cancel is 204, progress 404, neither echoes it', async () => {
    for (const length of [101, 150, 5000]) {
      const id = 'q'.repeat(length);
      const cancel = await send('POST', `/v1/cancel_query/${id}`, keyed());
      expect(cancel).toMatchObject({ status: 204, text: '' });
      const progress = await send('GET', `/v1/query_progress/${id}`, keyed());
      expect(progress.status).toBe(404);
      expect(Object.keys(progress.body)).toEqual(['error']);
      expect(progress.body.error.length).toBeLessThan(120);
    }
  });

  it('an object id over its bound is a 400 naming the parameter', async () => {
    const r = await send('GET', `/v1/detection_rule/${'r'.repeat(300)}`, keyed());
    expect(r).toMatchObject({ status: 400, body: { error: 'params.id must NOT have more than 200 characters' } });
  });

  it('a path that is not valid percent-encoding, bad JSON, an unknown media type, a large body, an unknown long route', async () => {
    const cases: [Promise<Awaited<ReturnType<typeof send>>>, number, RegExp][] = [
      [send('GET', '/v1/index/%zz', keyed()), 400, /^malformed url/],
      [send('POST', '/v1/blocking_query', { ...keyed(), ...json }, '{bad'), 400, /^request body is not valid JSON$/],
      [send('POST', '/v1/blocking_query', { ...keyed(), 'content-type': 'text/csv' }, 'a,b'), 415, /^unsupported Content-Type/],
      [send('POST', '/v1/blocking_query', { ...keyed(), ...json }, `{"query":"${'x'.repeat(2 << 20)}"}`), 413, /^request body is too large$/],
      [send('GET', `/v1/${'n'.repeat(5000)}`, keyed()), 404, /^no route GET \/v1\/n+…$/],
    ];
    for (const [response, status, error] of cases) {
      const r = await response;
      expect(r.status).toBe(status);
      expect(Object.keys(r.body)).toEqual(['error']);
      expect(r.body.error).toMatch(error);
      expect(r.body.error.length).toBeLessThan(200);
    }
  });

  it('a request the HTTP parser refuses answers the envelope too', async () => {
    await listening();
    const { port } = h.app.server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write('POST /v1/blocking_query HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n');
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe('{"error":"malformed http request"}');
  });
});
