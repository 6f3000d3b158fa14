/**
 * Sync sources through the HTTP API (create, list, get, update, delete, tenancy) and every way an
 * upload to `POST /v1/upload_git_repo_zipball` can be refused: each answers a 4xx with `{error}`.
 */
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';
import { webhookSinkBody as webhook } from '../support/rule-bodies.js';
import { multipartOf, ruleFile, zipOf } from '../support/rule-repository.js';

let h: ApiHarness;
let acme: string;
let globex: string;
let both: string;
let sinkA: string;
let theirSink: string;

const fields = { push_key: 'shared-key', branch: 'main', commit_sha: 'abc1234' };

async function post(key: string, body: { payload: Buffer | string; contentType: string }) {
  const response = await h.app.inject({ method: 'POST', url: '/v1/upload_git_repo_zipball', headers: { authorization: `Bearer ${key}`, 'content-type': body.contentType }, payload: body.payload });
  return { status: response.statusCode, body: response.json() };
}

beforeAll(async () => {
  h = await openApiHarness();
  acme = await h.keyFor('acme');
  globex = await h.keyFor('globex');
  both = await h.keyFor('acme', 'globex');
  sinkA = (await h.call('POST', '/v1/event_sink', acme, webhook('acme', 'a'))).body.event_sink.id;
  theirSink = (await h.call('POST', '/v1/event_sink', globex, webhook('globex', 'g'))).body.event_sink.id;
}, 120_000);
afterAll(async () => h?.close());

describe('sync sources', () => {
  it('are created, listed, read, re-mapped and deleted; a deleted source takes its rules with it', async () => {
    const created = await h.call('POST', '/v1/sync_source', acme, { tenant_id: 'acme', push_key: 'repo-1', branch: 'main', event_sink_keys: { high: [sinkA] } });
    expect(created.status).toBe(200);
    const source = created.body.sync_source;
    expect(source).toMatchObject({ tenant_id: 'acme', push_key: 'repo-1', branch: 'main', event_sink_keys: { high: [sinkA] }, last_commit_sha: null, last_synced_at: null });
    expect((await h.call('GET', `/v1/sync_source/${source.id}`, acme)).body.sync_source).toEqual(source);
    const listed = await h.call('GET', '/v1/sync_source?tenant_id=acme', acme);
    expect(listed.body).toEqual({ data: { sync_sources: [source] }, pagination: { next_page_token: null } });

    const remapped = await h.call('PUT', `/v1/sync_source/${source.id}`, acme, { id: source.id, event_sink_keys: { high: [sinkA], low: [sinkA] } });
    expect(remapped.body.sync_source.event_sink_keys).toEqual({ high: [sinkA], low: [sinkA] });

    const synced = await post(acme, await multipartOf({ ...fields, push_key: 'repo-1' }, zipOf({ 'a.yml': ruleFile('Rule of repo 1', { sinkKeys: ['low'] }) })));
    expect(synced.status).toBe(200);
    const ruleId = synced.body.files[0].detection_rule_id;
    const deleted = await h.call('DELETE', `/v1/sync_source/${source.id}`, acme);
    expect(deleted.body).toEqual({ id: source.id, tenant_id: 'acme', deleted_detection_rule_ids: [ruleId] });
    expect((await h.call('GET', `/v1/detection_rule/${ruleId}`, acme)).status).toBe(404);
    expect((await h.call('GET', `/v1/sync_source/${source.id}`, acme)).status).toBe(404);
  });

  it('refuse a second source with the same push key and branch, unknown sinks, other tenants\' sinks and bad keys', async () => {
    const body = { tenant_id: 'acme', push_key: 'repo-2', branch: 'main' };
    expect((await h.call('POST', '/v1/sync_source', acme, body)).status).toBe(200);
    const twice = await h.call('POST', '/v1/sync_source', acme, body);
    expect(twice).toMatchObject({ status: 409, body: { error: 'tenant "acme" already has a sync source with push_key "repo-2" and branch "main"' } });
    expect((await h.call('POST', '/v1/sync_source', acme, { ...body, branch: 'dev' })).status).toBe(200);
    const foreign = await h.call('POST', '/v1/sync_source', acme, { ...body, branch: 'x', event_sink_keys: { high: [theirSink] } });
    expect(foreign).toMatchObject({ status: 400, body: { error: `event_sink_keys.high: event sink "${theirSink}" not found` } });
    const badKey = await h.call('POST', '/v1/sync_source', acme, { ...body, branch: 'y', event_sink_keys: { 'bad key': [sinkA] } });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error).toMatch(/sink key "bad key" must be/);
  });

  it('belong to their tenant: another tenant\'s key gets 403 on its tenant_id and 404 on its ids', async () => {
    const source = (await h.call('POST', '/v1/sync_source', acme, { tenant_id: 'acme', push_key: 'repo-3', branch: 'main' })).body.sync_source;
    expect((await h.call('POST', '/v1/sync_source', globex, { tenant_id: 'acme', push_key: 'x', branch: 'main' })).status).toBe(403);
    expect((await h.call('GET', '/v1/sync_source?tenant_id=acme', globex)).status).toBe(403);
    expect((await h.call('GET', `/v1/sync_source/${source.id}`, globex)).status).toBe(404);
    expect((await h.call('PUT', `/v1/sync_source/${source.id}`, globex, { id: source.id, event_sink_keys: {} })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/sync_source/${source.id}`, globex)).status).toBe(404);
    expect((await h.call('GET', '/v1/sync_source?tenant_id=globex', globex)).body.data.sync_sources).toEqual([]);
  });
});

describe('uploads and tenancy', () => {
  beforeAll(async () => {
    await h.call('POST', '/v1/sync_source', acme, { tenant_id: 'acme', push_key: 'shared-key', branch: 'main' });
    await h.call('POST', '/v1/sync_source', globex, { tenant_id: 'globex', push_key: 'shared-key', branch: 'main' });
  });

  it('an upload reaches the source of its key\'s tenant only; a key holding both tenants names one', async () => {
    const zip = zipOf({ 'rules/a.yml': ruleFile('Globex rule') });
    const theirs = await post(globex, await multipartOf(fields, zip));
    expect(theirs.status).toBe(200);
    expect(theirs.body.sync_source.tenant_id).toBe('globex');
    const acmeRules = await h.call('GET', '/v1/detection_rule?tenant_id=acme', acme);
    expect(acmeRules.body.data.detection_rules.map((r: { name: string }) => r.name)).not.toContain('Globex rule');
    const ambiguous = await post(both, await multipartOf(fields, zip));
    expect(ambiguous).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^tenant_id is required/) } });
    const named = await post(both, await multipartOf({ ...fields, tenant_id: 'acme' }, zip));
    expect(named.body.sync_source.tenant_id).toBe('acme');
    const unknown = await post(globex, await multipartOf({ ...fields, push_key: 'repo-1' }, zip));
    expect(unknown).toMatchObject({ status: 404, body: { error: expect.stringMatching(/^no sync source with push_key "repo-1" and branch "main"/) } });
    const notTheirs = await post(globex, await multipartOf({ ...fields, tenant_id: 'acme' }, zip));
    expect(notTheirs.status).toBe(404);
  });
});

describe('refused uploads answer 4xx with {error}', () => {
  const rule = zipOf({ 'a.yml': ruleFile('Refused') });

  it.each<[string, () => Promise<{ payload: Buffer | string; contentType: string }>, number, RegExp]>([
    ['a JSON body', async () => ({ payload: JSON.stringify(fields), contentType: 'application/json' }), 415, /^send multipart\/form-data/],
    ['no zip file', () => multipartOf(fields), 400, /^missing the zip file of the repository/],
    ['a missing push_key', () => multipartOf({ branch: 'main', commit_sha: 'abc' }, rule), 400, /^missing required field push_key/],
    ['an unknown field', () => multipartOf({ ...fields, team_id: 'x' }, rule), 400, /^unknown field "team_id"; the fields are push_key, branch, commit_sha, commit_message, tenant_id/],
    ['a commit_sha with spaces', () => multipartOf({ ...fields, commit_sha: 'a b' }, rule), 400, /commit_sha must be/],
    ['a file that is not a zip', () => multipartOf(fields, strToU8('just text')), 400, /file is not a valid zip archive/],
    ['a zip bomb', () => multipartOf(fields, zipSync({ 'bomb.yml': strToU8(`# schema: x\n${'a'.repeat(8 << 20)}`) })), 413, /bomb.yml inflates to more than 1048576 bytes/],
    ['an unsafe path', () => multipartOf(fields, zipSync({ '../a.yml': strToU8(ruleFile('x')) })), 400, /unsafe path/],
    ['a truncated body', async () => {
      const full = await multipartOf(fields, rule);
      return { payload: full.payload.subarray(0, full.payload.length - 40), contentType: full.contentType };
    }, 400, /^malformed multipart body/],
  ])('%s', async (_what, body, status, error) => {
    const response = await post(acme, await body());
    expect(response.status).toBe(status);
    expect(response.body.error).toMatch(error);
  });

  it('a zip over the upload limit: 413', async () => {
    const response = await post(acme, await multipartOf(fields, new Uint8Array((32 << 20) + 1)));
    expect(response).toMatchObject({ status: 413, body: { error: `the file is larger than ${32 << 20} bytes` } });
  });

  it('the OpenAPI document describes the sync endpoints', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/sync_source', '/v1/sync_source/{id}', '/v1/upload_git_repo_zipball']));
  });
});
