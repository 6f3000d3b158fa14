/**
 * Lookup tables through the HTTP API (docs/compatibility.md): upload a CSV, list, read,
 * download, preview, describe, replace and delete, and use them in queries (`| lookup`) and rules,
 * on the real engine. Another tenant's table answers 404, a bad file 400 with its line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';
import { multipartOf } from '../support/rule-repository.js';

let h: ApiHarness;
let acme: string;
let globex: string;
const range = { start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-22T00:00:00Z' };

async function upload(key: string, tenant: string, fields: Record<string, string>, csv?: string, path = `/v1/lookup_table_file/upload/tenant/${tenant}`) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (csv !== undefined) form.append('file', new Blob([csv], { type: 'text/csv' }), 'table.csv');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const response = await h.app.inject({
    method: 'POST',
    url: path,
    headers: { authorization: `Bearer ${key}`, 'content-type': request.headers.get('content-type') ?? '' },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return { status: response.statusCode, body: response.json() };
}

async function query(key: string, text: string) {
  return h.call('POST', '/v1/blocking_query', key, { tenant_id: 'acme', query: text, ...range });
}

beforeAll(async () => {
  h = await openApiHarness();
  acme = await h.keyFor('acme');
  globex = await h.keyFor('globex');
  await h.ingest('acme', 'web', [
    JSON.stringify({ '@timestamp': '2026-11-21T10:00:00Z', src: '1.2.3.4', user: 'alice' }),
    JSON.stringify({ '@timestamp': '2026-11-21T10:01:00Z', src: '9.9.9.9', user: 'bob' }),
    JSON.stringify({ '@timestamp': '2026-11-21T10:02:00Z', src: '5.6.7.8', user: 'carol' }),
    JSON.stringify({ '@timestamp': '2026-11-21T10:03:00Z', src: 404, user: 'dave' }),
  ]);
}, 120_000);
afterAll(async () => h?.close());

describe('lookup tables', () => {
  let id: string;
  const csv = 'indicator,provider,note\n1.2.3.4,otx,"scanner, known"\n5.6.7.8,feodo,c2\n1.2.3.4,dup,ignored\n404,codes,a number\n';

  it('uploads a CSV as a table the tenant owns, with its columns and counts', async () => {
    const created = await upload(acme, 'acme', { name: 'bad_ips', description: 'known bad addresses' }, csv);
    expect(created.status).toBe(200);
    const table = created.body.lookup_table_file;
    id = table.id;
    expect(table).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      tenant_id: 'acme',
      name: 'bad_ips',
      description: 'known bad addresses',
      columns: ['indicator', 'provider', 'note'],
      num_rows: 4,
      size_bytes: Buffer.byteLength(csv),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const listed = await h.call('GET', '/v1/lookup_table_file?tenant_id=acme', acme);
    expect(listed.body).toEqual({ data: { lookup_table_files: [table] }, pagination: { next_page_token: null } });
    expect((await h.call('GET', `/v1/lookup_table_file/${id}`, acme)).body).toEqual({ lookup_table_file: table });
    const unstable = await h.call('GET', '/v1/unstable/lookup_table_file/tenant/acme', acme);
    expect(unstable.body).toEqual({ lookup_table_files: [table] });
  });

  it('answers the file as uploaded, and a preview of its first rows', async () => {
    const data = await h.app.inject({ method: 'GET', url: `/v1/lookup_table_file/${id}/data`, headers: { authorization: `Bearer ${acme}` } });
    expect(data.headers['content-type']).toMatch(/^text\/csv/);
    expect(data.body).toBe(csv);
    const preview = await h.app.inject({ method: 'GET', url: `/v1/lookup_table_file/${id}/csv_preview?limit=1`, headers: { authorization: `Bearer ${acme}` } });
    expect(preview.body).toBe('indicator,provider,note\n1.2.3.4,otx,"scanner, known"\n');
  });

  it('enriches each event with the first row whose key is the text of its field, null when none is', async () => {
    const result = await query(acme, '* | lookup bad_ips indicator as src output provider as feed, note | table(user, feed, note)');
    expect(result.status).toBe(200);
    const rows = result.body.results.rows.map((r: { columns: unknown }) => r.columns);
    expect(rows).toEqual([
      { user: 'dave', feed: 'codes', note: 'a number' },
      { user: 'carol', feed: 'feodo', note: 'c2' },
      { user: 'bob', feed: null, note: null },
      { user: 'alice', feed: 'otx', note: 'scanner, known' },
    ]);
  });

  it('filters and aggregates on what a lookup wrote (an event no row matched holds null)', async () => {
    const result = await query(acme, '* | lookup bad_ips indicator as src | groupbycount provider');
    const rows = result.body.results.rows.map((r: { columns: unknown }) => r.columns);
    expect(rows).toEqual([
      { provider: null, '@q.count': 1 },
      { provider: 'codes', '@q.count': 1 },
      { provider: 'feodo', '@q.count': 1 },
      { provider: 'otx', '@q.count': 1 },
    ]);
  });

  it("answers a query naming an unknown table or column 400, with the nearest name; another tenant's table is unknown", async () => {
    const unknown = await query(acme, '* | lookup bad_ip indicator as src');
    expect(unknown).toMatchObject({ status: 400, body: { error: "unknown lookup table 'bad_ip' at 1:12; hint: did you mean bad_ips?" } });
    const column = await query(acme, '* | lookup bad_ips ip');
    expect(column.body.error).toMatch(/^lookup table 'bad_ips' has no column 'ip'/);
    const theirs = await h.call('POST', '/v1/blocking_query', globex, { tenant_id: 'globex', query: '* | lookup bad_ips indicator', ...range });
    expect(theirs.body.error).toMatch(/^unknown lookup table 'bad_ips'/);
    expect((await h.call('GET', `/v1/lookup_table_file/${id}`, globex)).status).toBe(404);
    expect((await h.call('DELETE', `/v1/lookup_table_file/${id}`, globex)).status).toBe(404);
  });

  it('lets a detection rule use a lookup table, and refuses one naming an unknown table', async () => {
    const rule = (query_text: string) => ({
      tenant_id: 'acme',
      name: 'bad source',
      description: '',
      time_range_s: 300,
      run_frequency_s: 60,
      enabled_state_override: 'Paused',
      severity: 'High',
      query_text,
      event_sink_ids: [],
    });
    expect((await h.call('POST', '/v1/detection_rule', acme, rule('* | lookup bad_ips indicator as src | where provider: *'))).status).toBe(200);
    const refused = await h.call('POST', '/v1/detection_rule', acme, rule('* | lookup nope indicator as src'));
    expect(refused).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^query_text: unknown lookup table 'nope'/) } });
  });

  it('changes the description, and replaces the data: queries then read the new rows only', async () => {
    const described = await h.call('PUT', `/v1/lookup_table_file/${id}`, acme, { id, description: null });
    expect(described.body.lookup_table_file.description).toBeNull();
    const form = await multipartOf({});
    expect(form.contentType).toMatch(/^multipart\/form-data/);
    const replaced = await upload(acme, 'acme', {}, 'indicator,provider\n9.9.9.9,blocklist\n', `/v1/lookup_table_file/${id}/replace_data`);
    expect(replaced.status).toBe(200);
    expect(replaced.body.lookup_table_file).toMatchObject({ columns: ['indicator', 'provider'], num_rows: 1 });
    const result = await query(acme, '* | lookup bad_ips indicator as src | where provider = blocklist | table(user, provider)');
    expect(result.body.results.rows.map((r: { columns: unknown }) => r.columns)).toEqual([{ user: 'bob', provider: 'blocklist' }]);
    const versions = await h.engine.query<{ n: string }>(`SELECT uniqExact(version) AS n FROM lookup_rows WHERE table_id = '${id}'`);
    expect(versions.rows[0]?.n).toBe('1');
  });

  it('refuses a malformed file with its line, a second table of the same name, and a form without file or name', async () => {
    const bad = await upload(acme, 'acme', { name: 'broken' }, 'a,b\n1,2\n3\n');
    expect(bad).toMatchObject({ status: 400, body: { error: 'file: invalid lookup table: line 3: 1 fields where the header has 2' } });
    const twice = await upload(acme, 'acme', { name: 'bad_ips' }, 'a\n1\n');
    expect(twice.status).toBe(409);
    expect((await upload(acme, 'acme', { name: 'x' })).body.error).toBe('missing the CSV file');
    expect((await upload(acme, 'acme', {}, 'a\n')).body.error).toBe('missing required field name');
    expect((await upload(acme, 'acme', { name: '../etc' }, 'a\n')).body.error).toMatch(/^name must be 1-128 letters/);
    expect((await upload(acme, 'globex', { name: 'x' }, 'a\n')).status).toBe(403);
  });

  it('deletes a table and its rows; queries naming it then fail', async () => {
    const deleted = await h.call('DELETE', `/v1/lookup_table_file/${id}`, acme);
    expect(deleted.body).toEqual({ id, tenant_id: 'acme' });
    expect((await h.call('GET', `/v1/lookup_table_file/${id}`, acme)).status).toBe(404);
    const rows = await h.engine.query<{ n: string }>(`SELECT count() AS n FROM lookup_rows WHERE table_id = '${id}'`);
    expect(rows.rows[0]?.n).toBe('0');
    expect((await query(acme, '* | lookup bad_ips indicator as src')).status).toBe(400);
  });
});
