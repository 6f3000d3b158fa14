/**
 * Every route of the API (from its own OpenAPI document, plus the health routes) under random
 * requests: path ids, query strings and JSON bodies drawn around each route's fields (right
 * names with wrong or odd values, values of any JSON type, missing and extra fields), raw bodies
 * for the text and upload routes, any content type. With a fixed seed and a bounded budget,
 * every answer must come within a time limit (no hang) and be below 500 with the `{"error"}`
 * envelope for errors. The query language has its own fuzzer (query-api-fuzz.int.test.ts).
 * API_FUZZ_SEED and API_FUZZ_REQUESTS pick another seed or budget.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom, fuzzText } from '../../src/query/testing/parser-fuzz.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

const seed = Number(process.env.API_FUZZ_SEED ?? 20);
const requests = Number(process.env.API_FUZZ_REQUESTS ?? 1500);
/** An answer later than this is a hang (a route waiting on something that never comes). */
const hangMs = 15_000;

let h: ApiHarness;
let key: string;
let routes: Route[];
/** Ids that exist (this tenant's and another's), so that some requests reach past the lookup. */
const knownIds: string[] = [];

interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly query: readonly string[];
  readonly bodyFields: readonly string[] | null;
}

beforeAll(async () => {
  h = await openApiHarness({ env: { VIGIL_ALLOW_PRIVATE_DESTINATIONS: 'false' } });
  key = await h.keyFor('fuzz');
  const other = await h.keyFor('other');
  const base = Date.parse('2026-11-20T10:00:00Z');
  await h.ingest('fuzz', 'web', Array.from({ length: 50 }, (_, n) => JSON.stringify({ ts: new Date(base + n * 1000).toISOString(), eventName: n % 2 ? 'ConsoleLogin' : 'PutUserPolicy', user: `u${n % 5}`, n })));
  for (const [tenant, k] of [['fuzz', key], ['other', other]] as const) {
    const sink = await h.call('POST', '/v1/event_sink', k, { tenant_id: tenant, name: 'hook', description: '', event_sink_args: { Webhook: { url: 'https://hooks.example.com/in' } } });
    const rule = await h.call('POST', '/v1/detection_rule', k, { tenant_id: tenant, name: 'r', description: '', time_range_s: 300, run_frequency_s: 60, enabled_state_override: 'Staging', severity: 'High', query_text: 'eventName: ConsoleLogin', event_sink_ids: [sink.body.event_sink.id] });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    const index = await h.call('GET', `/v1/index?tenant_id=${tenant}`, k);
    knownIds.push(sink.body.event_sink.id, rule.body.detection_rule.id, ...index.body.data.indexes.map((i: { id: string }) => i.id));
  }
  const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  routes = [
    { method: 'GET', path: '/healthz', query: [], bodyFields: null },
    { method: 'GET', path: '/readyz', query: [], bodyFields: null },
    { method: 'GET', path: '/metrics', query: [], bodyFields: null },
  ];
  for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(operations)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      routes.push({
        method: method.toUpperCase() as Route['method'],
        path,
        query: (operation.parameters ?? []).filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name),
        bodyFields: schema ? Object.keys(schema.properties ?? {}) : null,
      });
    }
  }
}, 120_000);
afterAll(async () => h?.close());

const queryText = fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((n) => fuzzText(createRandom(n)));
const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', '../../etc/passwd', '%00', 'a'.repeat(5000), '-1', '1e400', 'NaN', 'null', '{}', '[]', 'default', 'other'),
);
const anyJson = fc.jsonValue({ maxDepth: 4 });
const times = fc.oneof(fc.constantFrom('2026-11-20T00:00:00Z', '2026-11-21T00:00:00Z', '1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z', 'now', '-1h'), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), oddString);
const numbers = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1, 60, 300, 86_400, 2 ** 31, 2 ** 53, 1e300, 0.5), fc.double());
const sinkArgs = fc.oneof(
  fc.record({ Webhook: fc.record({ url: fc.constantFrom('https://hooks.example.com/x', 'http://127.0.0.1/', 'http://[::ffff:0:127.0.0.1]/', 'http://169.254.169.254/', 'ftp://x', 'not a url'), headers: fc.option(fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })), { nil: undefined }) }, { requiredKeys: ['url'] }) }),
  fc.record({ Pager: fc.record({ integration_key: oddString }) }),
  fc.record({ Chat: fc.record({ channel_id: oddString, chat_integration_id: oddString }) }),
  anyJson,
);

/** A value for a field, by its name: mostly plausible, often of the wrong type. */
function fieldValue(name: string): fc.Arbitrary<unknown> {
  const plausible: Record<string, fc.Arbitrary<unknown>> = {
    tenant_id: fc.constantFrom('fuzz', 'other', 'nobody', ''),
    id: fc.constantFrom(...knownIds),
    query: queryText,
    query_text: queryText,
    start_time: times,
    end_time: times,
    severity: fc.constantFrom('High', 'Low', 'Medium', 'Critical', 'Info', 'high', ''),
    enabled_state_override: fc.constantFrom('Active', 'Staging', 'Inactive', 'on', null),
    event_sink_ids: fc.array(fc.oneof(fc.constantFrom(...knownIds), oddString), { maxLength: 3 }),
    event_sink_args: sinkArgs,
    event_sink_keys: fc.dictionary(oddString, fc.array(fc.constantFrom(...knownIds), { maxLength: 2 })),
    tags: fc.array(oddString, { maxLength: 4 }),
    alert_template: anyJson,
  };
  const byType = /_s$|max_|_rows|_bytes/.test(name) ? numbers : /^(debounce|alert_per_row|scan_back_to_front)$/.test(name) ? fc.boolean() : oddString;
  return fc.oneof({ weight: 3, arbitrary: plausible[name] ?? byType }, { weight: 1, arbitrary: anyJson }, { weight: 1, arbitrary: oddString });
}

/**
 * A body the route accepts, when it takes JSON: most requests start from one so that they reach
 * past validation into the services, then get a few mutations (a field dropped, given another
 * value of any type, an unknown field added).
 */
function validBody(route: Route): fc.Arbitrary<Record<string, unknown>> | null {
  const query = { tenant_id: fc.constant('fuzz'), query: queryText, start_time: fc.constant('2026-11-20T00:00:00Z'), end_time: fc.constant('2026-11-21T00:00:00Z'), max_rows: fc.integer({ min: 1, max: 100 }) };
  const rule = {
    name: fc.string({ minLength: 1, maxLength: 20 }),
    description: fc.string({ maxLength: 20 }),
    time_range_s: fc.constantFrom(60, 300, 3600),
    run_frequency_s: fc.constant(60),
    enabled_state_override: fc.constantFrom('Active', 'Staging'),
    severity: fc.constantFrom('High', 'Low'),
    query_text: fc.oneof(queryText, fc.constant('eventName: ConsoleLogin | stats count() as n by user')),
    event_sink_ids: fc.constant([]),
  };
  const sink = { name: fc.string({ minLength: 1, maxLength: 20 }), description: fc.string({ maxLength: 20 }), event_sink_args: sinkArgs };
  const templates: Record<string, Record<string, fc.Arbitrary<unknown>>> = {
    'POST /v1/blocking_query': query,
    'POST /v1/start_query': query,
    'POST /v1/detection_rule': { tenant_id: fc.constant('fuzz'), ...rule },
    'PUT /v1/detection_rule/{id}': { id: fc.constantFrom(...knownIds), ...rule },
    'POST /v1/event_sink': { tenant_id: fc.constant('fuzz'), ...sink },
    'PUT /v1/event_sink/{id}': { id: fc.constantFrom(...knownIds), ...sink },
    'POST /v1/sync_source': { tenant_id: fc.constant('fuzz'), push_key: fc.string({ minLength: 1, maxLength: 20 }), branch: fc.constantFrom('main', 'dev') },
  };
  const template = templates[`${route.method} ${route.path}`];
  return template === undefined ? null : fc.record(template);
}

function bodyFor(route: Route, fields: readonly string[]): fc.Arbitrary<unknown> {
  const mutation = fc.oneof(
    fc.constantFrom(...fields).map((field) => (body: Record<string, unknown>) => void delete body[field]),
    fc.constantFrom(...fields).chain((field) => fieldValue(field).map((value) => (body: Record<string, unknown>) => void (body[field] = value))),
    fc.tuple(oddString, anyJson).map(([field, value]) => (body: Record<string, unknown>) => void (body[field] = value)),
  );
  const fromFields = fc
    .tuple(...fields.map((field) => fc.option(fieldValue(field), { nil: undefined, freq: 4 })))
    .map((values) => Object.fromEntries(fields.flatMap((field, i) => (values[i] === undefined ? [] : [[field, values[i]]]))));
  const start = validBody(route) ?? fromFields;
  const changes = fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 2 }) });
  const mutated = fc.tuple(start, changes).map(([body, changes]) => {
    const copy = { ...body };
    for (const change of changes) change(copy);
    return copy;
  });
  return fc.oneof({ weight: 8, arbitrary: mutated }, { weight: 1, arbitrary: fromFields }, { weight: 1, arbitrary: anyJson });
}

const yamlRule = fc
  .tuple(fc.constantFrom('Active', 'Staging', 'Nope'), fc.oneof(queryText, fc.constant('eventName: ConsoleLogin')), fc.constantFrom(60, 300, 61, -1))
  .map(([enabled, query, range]) => `name: fuzzed\ndescription: x\nenabled: ${enabled}\nseverity: High\nquery_text: ${JSON.stringify(query)}\ntime_range_s: ${range}\nrun_frequency_s: 60\n`);
const ndjson = fc.array(fc.oneof(anyJson, fc.record({ ts: times, user: oddString, n: numbers })), { maxLength: 20 }).map((lines) => lines.map((line) => JSON.stringify(line)).join('\n'));

/** Raw bodies for ingest, YAML rules and uploads, or anything sent where JSON is expected. */
const rawBody = fc.oneof(
  ndjson,
  yamlRule,
  fc.array(fc.string({ maxLength: 60 }), { maxLength: 20 }).map((lines) => lines.join('\n')),
  fc.constantFrom('name: r\nquery: "eventName: x"\n', 'rules:\n  - name: a\n    query: "*"\n', '{"a":', '\u0000\u0001', '[1,2,', '%PDF', '--x\r\nContent-Disposition: form-data; name="branch"\r\n\r\nmain\r\n--x--\r\n'),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);
const contentType = fc.constantFrom('application/json', 'application/x-ndjson', 'text/plain', 'application/yaml', 'multipart/form-data; boundary=x', 'application/octet-stream', 'application/x-www-form-urlencoded', undefined);

/** Percent-encodes any string (a lone surrogate becomes U+FFFD: encodeURIComponent throws on it). */
const encode = (value: unknown): string => encodeURIComponent(String(value).toWellFormed());
/** Raw endings no encoder writes: malformed escapes and empty pairs. */
const rawTail = fc.constantFrom('', '', '', '', '', '', '', '', '&%', '&a=%zz', '&&', '&=', '&tenant_id=%E0%A4%A', '&tenant_id[]=a', '&pagination[page_size]=');

function pathFor(route: Route): fc.Arbitrary<string> {
  const params = route.path.match(/\{[^}]+\}/g) ?? [];
  return fc.tuple(...params.map(() => fc.oneof(fc.constantFrom(...knownIds), oddString))).map((values) => {
    let i = 0;
    return route.path.replace(/\{[^}]+\}/g, () => encode(values[i++]));
  });
}

/** The query string: the route's own parameters (tenant_id=fuzz, index=web where taken), then maybe odd ones. */
function queryFor(route: Route): fc.Arbitrary<string> {
  const valid: [string, string][] = route.query.flatMap((name): [string, string][] => (name === 'tenant_id' ? [[name, 'fuzz']] : name === 'index' ? [[name, 'web']] : []));
  const names = [...route.query, 'tenant_id', 'x'];
  const odd = fc.array(fc.tuple(fc.constantFrom(...names), fc.oneof(fieldValue('tenant_id'), oddString, numbers, fc.boolean())), { maxLength: 3 });
  return fc
    .tuple(fc.integer({ min: 0, max: 4 }).map((n) => n > 0), fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: odd }), rawTail)
    .map(([keepValid, pairs, tail]) => `?${[...(keepValid ? valid : []), ...pairs].map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}${tail}`);
}

const request = fc
  .integer({ min: 0, max: 10_000 })
  .chain((n) => {
    const route = routes[n % routes.length]!;
    const jsonBody = route.bodyFields ? bodyFor(route, route.bodyFields).map((b) => ({ payload: JSON.stringify(b), type: 'application/json' as string | undefined })) : null;
    const raw = fc.tuple(rawBody, contentType).map(([payload, type]) => ({ payload, type }));
    const body = route.method === 'GET' || route.method === 'DELETE' ? fc.constant({ payload: undefined as string | undefined, type: undefined as string | undefined }) : jsonBody ? fc.oneof({ weight: 4, arbitrary: jsonBody }, { weight: 1, arbitrary: raw }) : raw;
    return fc.record({ route: fc.constant(route), path: pathFor(route), query: queryFor(route), body, authorized: fc.boolean().map((b) => b || n % 10 !== 0) });
  });

describe(`every route under random requests (seed ${seed}, ${requests} requests)`, () => {
  it('answers each within the time limit, never with a 5xx, errors in the {"error"} envelope', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async ({ route, path, query, body, authorized }) => {
        const url = `${path}${query}`;
        const what = `${route.method} ${url} ${body.type ?? ''} ${String(body.payload).slice(0, 300)}`;
        const answer = h.app.inject({
          method: route.method,
          url,
          headers: { ...(authorized ? { authorization: `Bearer ${key}` } : {}), ...(body.type ? { 'content-type': body.type } : {}) },
          ...(body.payload === undefined ? {} : { payload: body.payload }),
        });
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), hangMs)));
        const response = await Promise.race([answer, late]).finally(() => clearTimeout(timer));
        expect(response, `hang: ${what}`).not.toBe('hang');
        if (response === 'hang') return;
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        expect(response.statusCode, `${what} answered ${response.body.slice(0, 300)}`).toBeLessThan(500);
        if (response.statusCode >= 400) expect(typeof response.json().error, `${what} answered ${response.body.slice(0, 300)}`).toBe('string');
      }),
      { seed, numRuns: requests, endOnFailure: true },
    );
    // the requests reached past validation: some succeeded, most were refused for a reason
    expect(statuses.get(200) ?? 0).toBeGreaterThan(requests / 10);
    expect([...statuses.keys()].filter((status) => status >= 400).length).toBeGreaterThan(3);
  }, 300_000);
});
