/**
 * The ad hoc query API (interface 4.1) through HTTP on ingested data: every parameter's default
 * and bounds, paging, scan direction, max_bytes, large aggregations, progress, cancel (checked
 * in the engine's system.processes), the blocking time limit, concurrency limits, tenant
 * isolation (a query id is found among every tenant a key holds) and record expiry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, formatRfc3339Ns } from '../../src/core/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

const base = Date.parse('2026-11-20T10:00:00Z');
const start = '2026-11-20T00:00:00Z';
const end = '2026-11-21T00:00:00Z';
const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
let h: ApiHarness;
let acme: string;

/** 2,500 events, five per second, so pages often end among equal timestamps. */
const webEvents = Array.from({ length: 2500 }, (_, n) =>
  JSON.stringify({ ts: new Date(base + Math.floor(n / 5) * 1000).toISOString(), n, user: `u${n % 50}`, msg: `request ${n} ok` }),
);

beforeAll(async () => {
  h = await openApiHarness({
    clock,
    env: { VIGIL_BLOCKING_QUERY_TIMEOUT_S: '2', VIGIL_QUERY_RESULT_TTL_S: '60', VIGIL_MAX_CONCURRENT_QUERIES_PER_TENANT: '2' },
  });
  acme = await h.keyFor('acme');
  await h.ingest('acme', 'web', webEvents);
}, 120_000);
afterAll(async () => h?.close());

const blocking = (body: Record<string, unknown>, key = acme) => h.call('POST', '/v1/blocking_query', key, { start_time: start, end_time: end, ...body });

describe('blocking_query', () => {
  it('defaults: the latest 1000 events, newest first, rows with row_id and columns', async () => {
    const r = await blocking({ query: '*' });
    expect(r.status).toBe(200);
    expect(r.body.is_completed).toBe(true);
    expect(r.body.results.rows).toHaveLength(1000);
    const ns = r.body.results.rows.map((row: any) => row.columns.n);
    expect(ns[0]).toBe(2499);
    expect(ns.at(-1)).toBe(1500);
    expect(r.body.results.column_ordering[0]).toBe('@svc.datetime');
    expect(r.body.results.rows[0].row_id).toEqual({ t: expect.stringMatching(/^\d+$/), s: expect.any(Number) });
    expect(r.body.metadata.n_bytes_scanned).toBeGreaterThan(0);
  });

  it.each([
    [{ max_rows: 0 }, /max_rows/],
    [{ max_rows: 100_001 }, /max_rows/],
    [{ max_rows: 2.5 }, /max_rows/],
    [{ max_bytes: 1024 * 1024 - 1 }, /max_bytes/],
    [{ max_bytes: 128 * 1024 * 1024 + 1 }, /max_bytes/],
    [{ start_time: 'yesterday' }, /start_time/],
    [{ end_time: '2026-11-19T00:00:00Z' }, /start_time must be before end_time/],
    [{ scan_back_to_front: 'sometimes' }, /scan_back_to_front/],
    [{ surprise: 1 }, /unknown field surprise/],
    [{ query: undefined }, /query/],
  ])('refuses %j with 400 naming the field', async (change, message) => {
    const r = await blocking({ query: '*', ...change });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });

  it('takes any RFC 3339 range: events lie within 1900..2262, so the range is clamped to that span', async () => {
    const everything = await blocking({ query: 'msg: ok | count', start_time: '0001-01-01T00:00:00Z', end_time: '9999-12-31T23:59:59Z' });
    expect(everything.status).toBe(200);
    expect(everything.body.results.rows.map((row: any) => row.columns['@q.count'])).toEqual([2500]);
    const latest = await blocking({ query: 'msg: ok', max_rows: 3, start_time: '1677-09-21T00:12:43Z', end_time: '9999-12-31T23:59:59.999999999Z' });
    expect(latest.body.results.rows.map((row: any) => row.columns.n)).toEqual([2499, 2498, 2497]);
    const started = await h.call('POST', '/v1/start_query', acme, { query: 'msg: ok', max_rows: 3, scan_back_to_front: false, start_time: '0001-01-01T00:00:00Z', end_time: '9999-12-31T23:59:59Z' });
    expect(started.status).toBe(200);
  });

  it.each([
    ['0001-01-01T00:00:00Z', '1899-12-31T23:59:59Z'],
    ['2262-04-12T00:00:00Z', '9999-12-31T23:59:59Z'],
  ])('answers a range wholly outside the span (%s .. %s) as an empty result', async (startTime, endTime) => {
    for (const scanBackToFront of [true, false]) {
      const events = await blocking({ query: '*', start_time: startTime, end_time: endTime, scan_back_to_front: scanBackToFront });
      expect(events.status).toBe(200);
      expect(events.body.results.rows).toEqual([]);
    }
    const counted = await blocking({ query: '* | count', start_time: startTime, end_time: endTime });
    expect(counted.status).toBe(200);
    expect(counted.body.results.rows.map((row: any) => row.columns['@q.count'])).toEqual([0]);
  });

  it('pages by row_id: start_leid / end_leid return the events strictly after / before it, each event once in both directions', async () => {
    const pageSize = 333; // a page ends before a second it would split (330 rows), and the next starts after its last row
    const forward: number[] = [];
    let cursor: unknown = null;
    for (let page = 0; page < 20; page++) {
      const r = await blocking({ query: 'msg: ok', max_rows: pageSize, scan_back_to_front: false, ...(cursor ? { start_leid: cursor } : {}) });
      expect(r.status).toBe(200);
      const rows = r.body.results.rows;
      forward.push(...rows.map((row: any) => row.columns.n));
      if (rows.length === 0) break;
      cursor = rows.at(-1).row_id;
    }
    expect(forward).toEqual(Array.from({ length: 2500 }, (_, n) => n));
    const backward: number[] = [];
    cursor = null;
    for (let page = 0; page < 20; page++) {
      // Without times: the end from the cursor, the start the earliest event.
      const body = { query: 'msg: ok', max_rows: pageSize, ...(cursor ? { end_leid: cursor } : {}) };
      const r = await h.call('POST', '/v1/blocking_query', acme, cursor ? body : { ...body, end_time: end });
      const rows = r.body.results.rows;
      backward.push(...rows.map((row: any) => row.columns.n));
      if (rows.length === 0) break;
      cursor = rows.at(-1).row_id;
    }
    expect(backward).toEqual(Array.from({ length: 2500 }, (_, n) => 2499 - n));
  });

  it('takes both cursors at once, and refuses a malformed one naming its part', async () => {
    const all = (await blocking({ query: '*', max_rows: 20, scan_back_to_front: false })).body.results.rows;
    const between = await blocking({ query: '*', start_leid: all[3].row_id, end_leid: all[9].row_id, scan_back_to_front: false });
    expect(between.body.results.rows.map((row: any) => row.columns.n)).toEqual([4, 5, 6, 7, 8]);
    const asText = await blocking({ query: '*', start_leid: { t: all[3].row_id.t, s: String(all[3].row_id.s) }, max_rows: 1, scan_back_to_front: false });
    expect(asText.body.results.rows[0].columns.n).toBe(4);
    const bad = await blocking({ query: '*', start_leid: { t: 'yesterday', s: 1 } });
    expect(bad).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^start_leid\.t/) } });
    const negative = await blocking({ query: '*', end_leid: { t: '1', s: -1 } });
    expect(negative.status).toBe(400);
  });

  it('answers a query error with 400, the position and every problem', async () => {
    const r = await blocking({ query: 'user != u1 | bogus' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/'!=' is not a filter operator at 1:6/);
    expect(r.body.diagnostics.map((d: any) => [d.line, d.column])).toEqual([
      [1, 6],
      [1, 14],
    ]);
  });

  it('refuses more than 1,000 terms and values with 400 at the one past the limit', async () => {
    const values = Array.from({ length: 1001 }, (_, i) => `u${i}`);
    const r = await blocking({ query: `user: (${values.join(' ')})` });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^the query holds 1001 terms and values, more than the 1000 one query may .* at 1:(\d+)$/);
    expect(r.body.diagnostics).toEqual([expect.objectContaining({ line: 1, column: `user: (${values.slice(0, 1000).join(' ')} `.length + 1 })]);
  });

  it('answers 400, not 500, for a query that compiles to more than the engine parses', async () => {
    const r = await blocking({ query: `*${' | head 5'.repeat(150)}` });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^the query is too large for the engine: its statement is nested too deeply; use fewer/);
  });

  it('compares with a number past the Float64 range exactly, as a bound no value reaches', async () => {
    const counted = async (query: string) => (await blocking({ query })).body.results.rows[0]?.columns['@q.count'];
    expect(await counted('n >= 1e999 | count')).toBe(0);
    expect(await counted('n < 1e999 | count')).toBe(2500);
    expect(await counted('n > -1e999 | count')).toBe(2500);
    expect(await counted('n = 1e999 | count')).toBe(0);
  });

  it('pages backwards with the last row time as the next end_time: nothing missing or repeated', async () => {
    const seen: number[] = [];
    let endTime = end;
    for (let page = 0; page < 50; page++) {
      const r = await blocking({ query: 'msg: ok', max_rows: 300, end_time: endTime });
      expect(r.status).toBe(200);
      const rows = r.body.results.rows;
      if (rows.length === 0) break;
      seen.push(...rows.map((row: any) => row.columns.n));
      endTime = formatRfc3339Ns(BigInt(rows.at(-1).row_id.t));
    }
    expect(seen).toHaveLength(2500);
    expect(new Set(seen).size).toBe(2500);
  });

  it('reads a minute holding more events than one statement returns in several, in order, none missing or repeated', async () => {
    // 12,000 events in one minute: runs of four equal timestamps around one run of 6,000 (longer
    // than a statement's 5,000 rows, and the first statement's 1,000: from there the slice is
    // read whole), in both directions.
    const minute = Date.parse('2026-11-20T08:00:00Z');
    const tsOf = (n: number) => (n < 3000 ? minute + Math.floor(n / 4) : n < 9000 ? minute + 20_000 : minute + 40_000 + Math.floor(n / 4));
    const lines = Array.from({ length: 12_000 }, (_, n) => JSON.stringify({ ts: new Date(tsOf(n)).toISOString(), n }));
    await h.ingest('acme', 'dense', lines);
    for (const scanBackToFront of [true, false]) {
      const r = await blocking({ query: '@index=dense', max_rows: 12_000, scan_back_to_front: scanBackToFront });
      expect(r.status).toBe(200);
      const got: number[] = r.body.results.rows.map((row: any) => row.columns.n);
      expect(got).toHaveLength(12_000);
      expect(new Set(got).size).toBe(12_000);
      const times = got.map(tsOf);
      const ordered = [...times].sort((a, b) => (scanBackToFront ? b - a : a - b));
      expect(times).toEqual(ordered);
    }
  }, 120_000);

  it('scans front to back when asked: the earliest events, oldest first', async () => {
    const r = await blocking({ query: 'user: u7', max_rows: 3, scan_back_to_front: false });
    expect(r.body.results.rows.map((row: any) => row.columns.n)).toEqual([7, 57, 107]);
  });

  it('cuts raw rows at max_bytes and says so', async () => {
    const big = 'x'.repeat(20_000);
    await h.ingest('acme', 'big', Array.from({ length: 200 }, (_, n) => JSON.stringify({ ts: new Date(base + n * 1000).toISOString(), n, big })));
    const r = await blocking({ query: '@index=big', max_bytes: 1024 * 1024 });
    const rows = r.body.results.rows;
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(200);
    expect(r.body.metadata.truncated).toBe(true);
    expect(rows.map((row: any) => row.columns.n)).toEqual(Array.from({ length: rows.length }, (_, i) => 199 - i));
  });

  it('aggregates 100,000 groups exactly, ignoring max_rows', async () => {
    const lines = Array.from({ length: 100_000 }, (_, n) => JSON.stringify({ ts: new Date(base + (n % 3600) * 1000).toISOString(), k: `key-${n}` }));
    await h.ingest('acme', 'keys', lines);
    const r = await blocking({ query: '@index=keys | groupbycount k', max_rows: 10 });
    expect(r.status).toBe(200);
    expect(r.body.results.rows).toHaveLength(100_000);
    expect(r.body.results.column_ordering).toEqual(['k', '@q.count']);
    expect(r.body.results.rows.every((row: any) => row.columns['@q.count'] === 1)).toBe(true);
    expect(r.body.metadata.truncated).toBe(false);
  }, 120_000);

  it('sees a new index and a newly ingested field at once, though the field catalog is cached', async () => {
    const event = (field: string) => JSON.stringify({ ts: new Date(base + 5000).toISOString(), [field]: 'fresh-value' });
    await h.ingest('acme', 'fresh', [event('alpha')]);
    const first = await blocking({ query: '@index=fresh al*: "fresh-value"' });
    expect(first.body.results.rows.map((row: any) => Object.keys(row.columns).filter((k) => k.startsWith('al')))).toEqual([['alpha']]);
    await h.ingest('acme', 'fresh', [event('alps')]);
    const second = await blocking({ query: '@index=fresh al*: "fresh-value"' });
    expect(second.body.results.rows).toHaveLength(2);
  });

  it('aggregates a value of a type just ingested, though aggregations read the cached catalog types', async () => {
    const event = (code: unknown) => JSON.stringify({ ts: new Date(base + 5000).toISOString(), code });
    await h.ingest('acme', 'codes', [event('E1')]);
    const first = await blocking({ query: '@index=codes | groupbycount code' });
    expect(first.body.results.rows.map((row: any) => row.columns.code)).toEqual(['E1']);
    await h.ingest('acme', 'codes', [event(7), event(7.5), event(null)]);
    const second = await blocking({ query: '@index=codes code: * | groupbycount code' });
    expect(second.body.results.rows.map((row: any) => row.columns.code)).toEqual([null, 7, 7.5, 'E1']);
  });

  it('compares a value of a type just ingested, though comparisons read the cached catalog types', async () => {
    const event = (level: unknown) => JSON.stringify({ ts: new Date(base + 6000).toISOString(), level });
    await h.ingest('acme', 'levels', [event(3)]);
    const first = await blocking({ query: '@index=levels level >= 2' });
    expect(first.body.results.rows.map((row: any) => row.columns.level)).toEqual([3]);
    // now a float, a decimal string and an integer beyond 2^53 (stored as its digits)
    await h.ingest('acme', 'levels', [event(2.5), event('4.25'), `{"ts":"${new Date(base + 6000).toISOString()}","level":9007199254740993}`]);
    const second = await blocking({ query: '@index=levels level >= 2 | table level' });
    expect(second.body.results.rows.map((row: any) => row.columns.level).sort()).toEqual([2.5, 3, '4.25', '9007199254740993'].sort());
    const beyond = await blocking({ query: '@index=levels level > 9007199254740992 | table level' });
    expect(beyond.body.results.rows.map((row: any) => row.columns.level)).toEqual(['9007199254740993']);
  });

  it('finds free text that is searched column by column: a number not in canonical text, a word in where after eval', async () => {
    // Both need the stored columns from the field catalog, which other searches skip reading.
    const number = await blocking({ query: '@index=web 7.0' });
    expect(number.body.results.rows.map((row: any) => row.columns.n)).toEqual([7]);
    const afterEval = await blocking({ query: '@index=web n = 7 | eval(extra = 1) | where u7' });
    expect(afterEval.body.results.rows.map((row: any) => row.columns.user)).toEqual(['u7']);
  });

  it('keeps another tenant out: a key without acme gets 403 naming it', async () => {
    const other = await h.keyFor('other');
    const r = await h.call('POST', '/v1/blocking_query', other, { tenant_id: 'acme', query: '*', start_time: start, end_time: end });
    expect(r.status).toBe(403);
    const multi = await h.keyFor('acme', 'other');
    const missing = await h.call('POST', '/v1/blocking_query', multi, { query: '*', start_time: start, end_time: end });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/tenant_id is required/);
  });
});

describe('a tenant_id that names no tenant', () => {
  it('answers 404 naming tenant_id to a key holding every tenant, for blocking and started queries', async () => {
    const admin = (await h.runtime.services.keys.create({ name: 'admin', tenants: [], admin: true }, { kind: 'cli' })).secret;
    for (const endpoint of ['/v1/blocking_query', '/v1/start_query']) {
      const r = await h.call('POST', endpoint, admin, { tenant_id: 'nosuch', query: '*', start_time: start, end_time: end });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'tenant_id: tenant "nosuch" not found' });
    }
    // a tenant that exists but holds no events is an empty result, not an error
    await h.keyFor('empty');
    const empty = await h.call('POST', '/v1/blocking_query', admin, { tenant_id: 'empty', query: '*', start_time: start, end_time: end });
    expect(empty.status).toBe(200);
    expect(empty.body.results.rows).toEqual([]);
  });
});

describe('start_query, query_progress, cancel_query', () => {
  // A deadline in time, not a number of polls: 200 polls (about 12 s) once ran out on a loaded
  // clean-clone run while the 1,000-value list was still being answered.
  async function finish(qrId: string, key = acme, show = true): Promise<any> {
    for (const deadline = Date.now() + 50_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
      const r = await h.call('GET', `/v1/query_progress/${qrId}?show_intermediate_results=${show}`, key);
      expect(r.status).toBe(200);
      if (r.body.is_completed) return r.body;
    }
    throw new Error('query did not complete within 50 s');
  }

  it('answers a list of 1,000 values and eval with 100 assignments (they were 500s)', async () => {
    const users = Array.from({ length: 1000 }, (_, i) => `"u${i}"`);
    const listed = await h.call('POST', '/v1/start_query', acme, { query: `user: (${users.join(' ')}) | count`, start_time: start, end_time: end });
    expect(listed.status).toBe(200);
    expect((await finish(listed.body.qr_id)).results.rows).toEqual([{ '@q.count': 2500 }]);
    const evals = Array.from({ length: 100 }, (_, i) => (i === 0 ? 'x0 = n' : `x${i} = x${i - 1} + 1`));
    const chained = await h.call('POST', '/v1/start_query', acme, { query: `n = 7 | eval ${evals.join(', ')} | table n, x99`, start_time: start, end_time: end });
    expect(chained.status).toBe(200);
    const rows = (await finish(chained.body.qr_id)).results.rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row: unknown) => JSON.stringify(row)))).toEqual(new Set([JSON.stringify({ n: 7, x99: 106 })]));
  }, 120_000); // two queries, each given finish's 50 s

  it('starts, then reports the same flat rows a blocking query returns', async () => {
    const started = await h.call('POST', '/v1/start_query', acme, { query: 'user: u3 | stats count() as n by user', start_time: start, end_time: end });
    expect(started.status).toBe(200);
    const done = await finish(started.body.qr_id);
    expect(done.results.rows).toEqual([{ user: 'u3', '@q.count': 50, n: 50 }]);
  });

  it('is another tenant’s 404, and their cancel does not stop it', async () => {
    const started = await h.call('POST', '/v1/start_query', acme, { query: 'msg: ok', start_time: start, end_time: end, max_rows: 50 });
    const other = await h.keyFor('other');
    expect((await h.call('GET', `/v1/query_progress/${started.body.qr_id}`, other)).status).toBe(404);
    expect((await h.call('POST', `/v1/cancel_query/${started.body.qr_id}`, other)).status).toBe(204);
    const done = await finish(started.body.qr_id);
    expect(done.results.rows).toHaveLength(50);
    expect(done.metadata.cancelled).toBeUndefined();
  });

  it('finds a query among the tenants a key holds, without tenant_id; never among others', async () => {
    const started = await h.call('POST', '/v1/start_query', acme, { query: '*', start_time: start, end_time: end, max_rows: 5 });
    await finish(started.body.qr_id);
    const several = await h.keyFor('acme', 'other');
    const admin = (await h.runtime.services.keys.create({ name: 'admin', tenants: [], admin: true }, { kind: 'cli' })).secret;
    for (const key of [several, admin]) {
      const r = await h.call('GET', `/v1/query_progress/${started.body.qr_id}`, key);
      expect(r.status).toBe(200);
      expect(r.body.results.rows).toHaveLength(5);
      expect((await h.call('POST', `/v1/cancel_query/${started.body.qr_id}`, key)).status).toBe(204);
    }
    // tenant_id still narrows the search, and must be one the key holds
    expect((await h.call('GET', `/v1/query_progress/${started.body.qr_id}?tenant_id=acme`, several)).status).toBe(200);
    expect((await h.call('GET', `/v1/query_progress/${started.body.qr_id}?tenant_id=other`, several)).status).toBe(404);
    expect((await h.call('GET', `/v1/query_progress/${started.body.qr_id}?tenant_id=third`, several)).status).toBe(403);
    const without = await h.keyFor('other', 'third');
    expect((await h.call('GET', `/v1/query_progress/${started.body.qr_id}`, without)).status).toBe(404);
    expect((await h.call('POST', `/v1/cancel_query/${started.body.qr_id}`, without)).status).toBe(204);
  });

  it('cancel is 204 for unknown, finished and already cancelled queries', async () => {
    expect((await h.call('POST', '/v1/cancel_query/no-such-query', acme)).status).toBe(204);
    const started = await h.call('POST', '/v1/start_query', acme, { query: '*', start_time: start, end_time: end, max_rows: 5 });
    await finish(started.body.qr_id);
    expect((await h.call('POST', `/v1/cancel_query/${started.body.qr_id}`, acme)).status).toBe(204);
    expect((await h.call('POST', `/v1/cancel_query/${started.body.qr_id}`, acme)).status).toBe(204);
  });

  it('forgets finished queries after the configured time (404)', async () => {
    const started = await h.call('POST', '/v1/start_query', acme, { query: '*', start_time: start, end_time: end, max_rows: 1 });
    await finish(started.body.qr_id);
    clock.advance(61_000);
    expect((await h.call('GET', `/v1/query_progress/${started.body.qr_id}`, acme)).status).toBe(404);
  });
});

describe('long queries', () => {
  let slow: string;
  // Four wildcard scans over a million synthetic events: seconds of engine work.
  const heavy = "'*zzz*' or '*yyy*' or '*xxx*' or '*www*' | count";

  beforeAll(async () => {
    slow = await h.keyFor('slow');
    const index = await h.runtime.services.indexes.create('slow', { name: 'bulk' }, { kind: 'cli' });
    await h.engine.exec(
      `INSERT INTO logs (tenant, idx, ts, seq, source_type, ts_field, raw, search_text) ` +
        `SELECT 'slow', '${index.id}', fromUnixTimestamp64Nano(toInt64(${BigInt(base) * 1_000_000n} + number * 1000000)), number + 1, ` +
        `'custom:generic', '', '{}', concat('value ', toString(number), ' ', repeat('abcdefghij ', 60)) FROM numbers(1000000)`,
      // In blocks of 100,000 rows: one block of a million would hold every empty typed slot too (over 2 GiB).
      { settings: { min_insert_block_size_rows: 100_000, min_insert_block_size_bytes: 0 } },
    );
  }, 120_000);

  async function engineQueriesOfTenant(): Promise<number> {
    const r = await h.engine.query<{ n: string }>("SELECT count() AS n FROM system.processes WHERE query LIKE '%tenant = ''slow''%' AND query NOT LIKE '%system.processes%'");
    return Number(r.rows[0]?.n);
  }

  it('cancel stops the engine work: the statement leaves the engine’s process list', async () => {
    const started = await h.call('POST', '/v1/start_query', slow, { query: heavy, start_time: start, end_time: end });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await engineQueriesOfTenant()).toBe(1);
    const t0 = Date.now();
    expect((await h.call('POST', `/v1/cancel_query/${started.body.qr_id}`, slow)).status).toBe(204);
    // The statement is gone from system.processes (typically within a few hundred ms; the
    // generous bound only keeps a loaded machine from failing the test).
    while ((await engineQueriesOfTenant()) > 0 && Date.now() - t0 < 5000) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await engineQueriesOfTenant()).toBe(0);
    const progress = await h.call('GET', `/v1/query_progress/${started.body.qr_id}`, slow);
    expect(progress.body).toMatchObject({ is_completed: true, results: { rows: [] }, metadata: { cancelled: true } });
  }, 30_000);

  it('a key holding several tenants cancels a query without naming its tenant; a key without it does not', async () => {
    const started = await h.call('POST', '/v1/start_query', slow, { query: heavy, start_time: start, end_time: end });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await h.call('POST', `/v1/cancel_query/${started.body.qr_id}`, await h.keyFor('acme', 'other'))).status).toBe(204);
    expect((await h.call('GET', `/v1/query_progress/${started.body.qr_id}`, slow)).body.is_completed).toBe(false);
    expect((await h.call('POST', `/v1/cancel_query/${started.body.qr_id}`, await h.keyFor('slow', 'other'))).status).toBe(204);
    const t0 = Date.now();
    while ((await engineQueriesOfTenant()) > 0 && Date.now() - t0 < 5000) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await engineQueriesOfTenant()).toBe(0);
    const progress = await h.call('GET', `/v1/query_progress/${started.body.qr_id}`, slow);
    expect(progress.body).toMatchObject({ is_completed: true, metadata: { cancelled: true } });
  }, 30_000);

  it('shows intermediate rows of a sliced search (none with show_intermediate_results=false) and growing bytes scanned', async () => {
    // Every row runs four wildcard scans, and one in ten matches: slices take a while to fill.
    const started = await h.call('POST', '/v1/start_query', slow, {
      query: "'*zzz*' or '*yyy*' or '*xxx*' or '*www*' or '*0 abcdefghij*'",
      start_time: start,
      end_time: end,
      // A third of the events fill the table: long enough to watch it grow, short enough for a slow machine.
      max_rows: 30_000,
    });
    let intermediate: any = null;
    let hidden: any = null;
    for (let i = 0; i < 400 && intermediate === null; i++) {
      const quiet = await h.call('GET', `/v1/query_progress/${started.body.qr_id}?show_intermediate_results=false`, slow);
      const shown = await h.call('GET', `/v1/query_progress/${started.body.qr_id}`, slow);
      if (!shown.body.is_completed && shown.body.results.rows.length > 0 && !quiet.body.is_completed) {
        intermediate = shown.body;
        hidden = quiet.body;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(intermediate, 'saw rows before completion').not.toBeNull();
    expect(hidden.results).toEqual({ column_ordering: [], column_tags: {}, rows: [], table_type: 'LogSearch' });
    expect(Object.keys(intermediate.results.rows[0])).toContain('@svc.datetime');
    let done = hidden;
    while (!done.is_completed) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      done = (await h.call('GET', `/v1/query_progress/${started.body.qr_id}?show_intermediate_results=false`, slow)).body;
    }
    // one in ten of the million events matches
    expect(done.results.rows).toHaveLength(30_000);
    expect(done.metadata.n_bytes_scanned).toBeGreaterThan(intermediate.metadata.n_bytes_scanned);
  }, 60_000);

  it('a blocking query past the configured limit answers 504 and stops the engine work', async () => {
    const t0 = Date.now();
    const r = await h.call('POST', '/v1/blocking_query', slow, { query: heavy, start_time: start, end_time: end });
    expect(r.status).toBe(504);
    expect(r.body.error).toMatch(/did not finish within 2 s/);
    expect(Date.now() - t0).toBeLessThan(4000);
    while ((await engineQueriesOfTenant()) > 0 && Date.now() - t0 < 6000) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await engineQueriesOfTenant()).toBe(0);
  }, 30_000);

  it('answers 429 with Retry-After past the per-tenant limit', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await h.call('POST', '/v1/start_query', slow, { query: heavy, start_time: start, end_time: end })).body.qr_id);
    const third = await h.call('POST', '/v1/start_query', slow, { query: heavy, start_time: start, end_time: end });
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('1');
    // another tenant is not held back
    expect((await blocking({ query: '* | count' })).status).toBe(200);
    for (const id of ids) await h.call('POST', `/v1/cancel_query/${id}`, slow);
  }, 30_000);
});
