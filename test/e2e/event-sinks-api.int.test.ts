/**
 * The event sink API (interface 2.7, 4.3) in process: each variant through create → get → list →
 * update → get → delete, secrets never returned nor logged, URL policy, chat integrations of the
 * same tenant, and deletion detaching the sink from rules, with its audit trail.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor, createServices } from '../../src/services/index.js';
import { buildApi } from '../../src/api/index.js';
import { ManualClock, SecretBox, silentLogger } from '../../src/core/index.js';
import { createSqliteStore } from '../../src/store/sqlite/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
let h: ApiHarness;
let acme: string;
let globex: string;
let acmeChat: string;
let globexChat: string;

const pagerKey = 'R0123456789abcdefghijklmnopqrstu';
const chatToken = 'xoxb-1234-5678-secretsecretsecret';
const signingSecret = 'whsec_0123456789abcdef';
const headerSecret = 'Bearer header-secret-value';
const secrets = [pagerKey, chatToken, signingSecret, headerSecret, 'header-secret-value'];

const create = (key: string, args: unknown, overrides: Record<string, unknown> = {}) =>
  h.call('POST', '/v1/event_sink', key, { tenant_id: 'acme', name: 'sink', description: 'where alerts go', event_sink_args: args, ...overrides });

function expectNoSecrets(value: unknown): void {
  const text = JSON.stringify(value);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

beforeAll(async () => {
  h = await openApiHarness({ clock });
  acme = await h.keyFor('acme');
  globex = await h.keyFor('globex');
  acmeChat = (await h.runtime.services.chatIntegrations.add('acme', { token: chatToken, name: 'acme workspace' }, cliActor)).id;
  globexChat = (await h.runtime.services.chatIntegrations.add('globex', { token: chatToken }, cliActor)).id;
}, 120_000);
afterAll(async () => h?.close());

describe('each variant through create, get, list, update, get and delete', () => {
  it('Webhook: url, headers and signing secret; secrets shown only as header names and has_signing_secret', async () => {
    const created = await create(acme, { Webhook: { url: 'https://hooks.example.com/vigil?team=sec', headers: { Authorization: headerSecret }, signing_secret: signingSecret } }, { name: 'soar', description: 'to the SOAR' });
    expect(created.status).toBe(200);
    const sink = created.body.event_sink;
    const expected = {
      id: expect.any(String),
      tenant_id: 'acme',
      name: 'soar',
      description: 'to the SOAR',
      event_sink_type: 'Webhook',
      configuration: { Webhook: { url: 'https://hooks.example.com/vigil?team=sec', header_names: ['Authorization'], has_signing_secret: true } },
      created_at: '2026-11-21T12:00:00Z',
      updated_at: '2026-11-21T12:00:00Z',
    };
    expect(sink).toEqual(expected);
    expectNoSecrets(created.body);
    expect((await h.call('GET', `/v1/event_sink/${sink.id}`, acme)).body).toEqual({ event_sink: { ...expected, id: sink.id } });
    const listed = await h.call('GET', '/v1/event_sink?tenant_id=acme', acme);
    expect(listed.body.data.event_sinks).toContainEqual({ ...expected, id: sink.id });

    clock.advance(60_000);
    const renamed = await h.call('PUT', `/v1/event_sink/${sink.id}`, acme, { id: sink.id, name: 'soar v2', description: '', event_sink_args: { Webhook: { url: 'https://hooks.example.com/v2' } } });
    // Arguments not given keep their values: secrets cannot be read back to be resent.
    const after = { ...expected, id: sink.id, name: 'soar v2', description: '', configuration: { Webhook: { url: 'https://hooks.example.com/v2', header_names: ['Authorization'], has_signing_secret: true } }, updated_at: '2026-11-21T12:01:00Z' };
    expect(renamed.body.event_sink).toEqual(after);
    expect((await h.call('GET', `/v1/event_sink/${sink.id}`, acme)).body.event_sink).toEqual(after);
    const stored = await h.runtime.store.sinks.get('acme', sink.id);
    expect(h.runtime.services.sinks.secretsOf(stored!)).toEqual({ headers: { Authorization: headerSecret }, signing_secret: signingSecret });
    expectNoSecrets(stored);

    const cleared = await h.call('PUT', `/v1/event_sink/${sink.id}`, acme, { id: sink.id, event_sink_args: { Webhook: { headers: null, signing_secret: null } } });
    expect(cleared.body.event_sink.configuration).toEqual({ Webhook: { url: 'https://hooks.example.com/v2', header_names: [], has_signing_secret: false } });

    expect(await h.call('DELETE', `/v1/event_sink/${sink.id}`, acme)).toMatchObject({ status: 200, body: { id: sink.id, tenant_id: 'acme' } });
    expect((await h.call('GET', `/v1/event_sink/${sink.id}`, acme)).status).toBe(404);
    expect((await h.call('DELETE', `/v1/event_sink/${sink.id}`, acme)).status).toBe(404);
    expect((await h.call('PUT', `/v1/event_sink/${sink.id}`, acme, { id: sink.id, name: 'x' })).status).toBe(404);
  });

  it('Pager: the integration key is returned masked and kept sealed', async () => {
    const created = await create(acme, { Pager: { integration_key: pagerKey } });
    expect(created.body.event_sink).toMatchObject({ event_sink_type: 'Pager', configuration: { Pager: { integration_key: '********rstu' } } });
    expectNoSecrets(created.body);
    const id = created.body.event_sink.id;
    const other = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
    const updated = await h.call('PUT', `/v1/event_sink/${id}`, acme, { id, event_sink_args: { Pager: { integration_key: other } } });
    expect(updated.body.event_sink.configuration).toEqual({ Pager: { integration_key: '********2345' } });
    expect(h.runtime.services.sinks.secretsOf((await h.runtime.store.sinks.get('acme', id))!)).toEqual({ integration_key: other });
  });

  it('Chat: channel_id or the deprecated channel, through an integration of the tenant', async () => {
    const created = await create(acme, { Chat: { channel_id: 'C0123SEC', chat_integration_id: acmeChat } });
    expect(created.body.event_sink).toMatchObject({ event_sink_type: 'Chat', configuration: { Chat: { channel_id: 'C0123SEC', chat_integration_id: acmeChat } } });
    const id = created.body.event_sink.id;
    const byName = await h.call('PUT', `/v1/event_sink/${id}`, acme, { id, event_sink_args: { Chat: { channel: '#security' } } });
    expect(byName.body.event_sink.configuration).toEqual({ Chat: { channel: '#security', chat_integration_id: acmeChat } });
    const deprecated = await create(acme, { Chat: { channel: '#alerts', chat_integration_id: acmeChat } });
    expect(deprecated.body.event_sink.configuration).toEqual({ Chat: { channel: '#alerts', chat_integration_id: acmeChat } });
    expectNoSecrets([created.body, byName.body, deprecated.body]);
  });

  it('changing the variant replaces the arguments and needs the new variant create fields', async () => {
    const id = (await create(acme, { Webhook: { url: 'https://hooks.example.com/x', signing_secret: signingSecret } })).body.event_sink.id;
    const incomplete = await h.call('PUT', `/v1/event_sink/${id}`, acme, { id, event_sink_args: { Pager: {} } });
    expect(incomplete).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^event_sink_args\.Pager\.integration_key is required/) } });
    const switched = await h.call('PUT', `/v1/event_sink/${id}`, acme, { id, event_sink_args: { Pager: { integration_key: pagerKey } } });
    expect(switched.body.event_sink).toMatchObject({ event_sink_type: 'Pager', configuration: { Pager: { integration_key: '********rstu' } } });
    expect(h.runtime.services.sinks.secretsOf((await h.runtime.store.sinks.get('acme', id))!)).toEqual({ integration_key: pagerKey });
  });
});

describe('validation: 400 naming the field', () => {
  it.each<[string, unknown, RegExp]>([
    ['no variant', {}, /event_sink_args must NOT have fewer than 1 properties/],
    ['two variants', { Webhook: { url: 'https://a.example.com/' }, Pager: { integration_key: pagerKey } }, /event_sink_args must NOT have more than 1 properties/],
    ['an unknown variant', { Tines: { url: 'https://a.example.com/' } }, /event_sink_args: unknown field Tines/],
    ['an unknown argument', { Webhook: { url: 'https://a.example.com/', retries: 3 } }, /event_sink_args\.Webhook: unknown field retries/],
    ['a webhook without url', { Webhook: {} }, /^event_sink_args\.Webhook\.url is required/],
    ['a url that is not one', { Webhook: { url: 'not a url' } }, /^event_sink_args\.Webhook\.url is not a valid URL/],
    ['an ftp url', { Webhook: { url: 'ftp://files.example.com/x' } }, /^event_sink_args\.Webhook\.url must be an http or https URL/],
    ['a url with credentials', { Webhook: { url: 'https://user:pw@hooks.example.com/' } }, /^event_sink_args\.Webhook\.url must not carry credentials/],
    ['a loopback url', { Webhook: { url: 'http://127.0.0.1:8080/' } }, /^event_sink_args\.Webhook\.url points at a loopback address/],
    ['localhost', { Webhook: { url: 'http://localhost/' } }, /^event_sink_args\.Webhook\.url points at the local or internal name localhost/],
    ['a private url', { Webhook: { url: 'https://10.0.0.8/hook' } }, /points at a private address/],
    ['the metadata endpoint', { Webhook: { url: 'http://169.254.169.254/latest/meta-data/' } }, /points at a link-local address/],
    ['metadata in decimal', { Webhook: { url: 'http://2852039166/' } }, /points at a link-local address/],
    ['an IPv4-mapped loopback', { Webhook: { url: 'http://[::ffff:127.0.0.1]/' } }, /points at a loopback address \(embedded in an IPv4-mapped IPv6 address\)/],
    ['an IPv4-translated loopback', { Webhook: { url: 'http://[::ffff:0:127.0.0.1]/' } }, /points at a loopback address \(embedded in an IPv4-translated IPv6 address\)/],
    ['a unique-local IPv6 url', { Webhook: { url: 'http://[fd00:ec2::254]/' } }, /points at a unique-local address/],
    ['a reserved header', { Webhook: { url: 'https://a.example.com/', headers: { 'Content-Type': 'text/plain' } } }, /^event_sink_args\.Webhook\.headers\.Content-Type is set by the service/],
    ['a short signing secret', { Webhook: { url: 'https://a.example.com/', signing_secret: 'short' } }, /^event_sink_args\.Webhook\.signing_secret must be 16 to 512 characters/],
    ['a malformed integration key', { Pager: { integration_key: 'not a key' } }, /^event_sink_args\.Pager\.integration_key must be 8-128/],
    ['a pager without key', { Pager: {} }, /^event_sink_args\.Pager\.integration_key is required/],
    ['a chat sink without channel', { Chat: { chat_integration_id: 'CHAT' } }, /^event_sink_args\.Chat\.channel_id is required/],
    ['a chat sink without integration', { Chat: { channel_id: 'C1' } }, /^event_sink_args\.Chat\.chat_integration_id is required/],
    ['both channel forms', { Chat: { channel_id: 'C1', channel: '#a', chat_integration_id: 'CHAT' } }, /^event_sink_args\.Chat\.channel cannot be given with channel_id: give channel_id or the deprecated channel, not both$/],
    ['an unknown integration', { Chat: { channel_id: 'C1', chat_integration_id: 'no-such-integration' } }, /^event_sink_args\.Chat\.chat_integration_id: chat integration "no-such-integration" not found/],
    ['an integration of another tenant', { Chat: { channel_id: 'C1', chat_integration_id: 'GLOBEX_CHAT' } }, /^event_sink_args\.Chat\.chat_integration_id: chat integration "[0-9a-f-]+" not found/],
  ])('refuses %s', async (_what, args, message) => {
    const body = JSON.parse(JSON.stringify(args).replaceAll('"CHAT"', JSON.stringify(acmeChat)).replaceAll('"GLOBEX_CHAT"', JSON.stringify(globexChat)));
    const before = (await h.call('GET', '/v1/event_sink?tenant_id=acme&pagination[page_size]=1000', acme)).body.data.event_sinks.length;
    const response = await create(acme, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(message);
    expectNoSecrets(response.body);
    expect((await h.call('GET', '/v1/event_sink?tenant_id=acme&pagination[page_size]=1000', acme)).body.data.event_sinks.length).toBe(before);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['without name', { name: undefined }, /missing required field name/],
    ['without description', { description: undefined }, /missing required field description/],
    ['without args', { event_sink_args: undefined }, /missing required field event_sink_args/],
    ['an empty name', { name: ' ' }, /^name must be a non-empty string/],
    ['a name with a control character', { name: 'a\u0007b' }, /^name must not contain control characters/],
    ['a name with a line break', { name: 'a\nb' }, /^name must not contain control characters \(tabs and line breaks included\)$/],
    ['a description with an escape', { description: 'line one\n\u001b[31mred' }, /^description must not contain control characters other than tabs and line breaks$/],
    ['an unknown field', { kind: 'webhook' }, /unknown field kind/],
  ])('refuses a body %s', async (_what, patch, message) => {
    const body: Record<string, unknown> = { tenant_id: 'acme', name: 'n', description: '', event_sink_args: { Webhook: { url: 'https://a.example.com/' } }, ...patch };
    for (const key of Object.keys(patch)) if (patch[key] === undefined) delete body[key];
    const response = await h.call('POST', '/v1/event_sink', acme, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(message);
  });

  it('update: a name with control characters is refused, and the sink keeps its name', async () => {
    const id = (await create(acme, { Webhook: { url: 'https://a.example.com/' } })).body.event_sink.id;
    const name = (await h.call('GET', `/v1/event_sink/${id}`, acme)).body.event_sink.name;
    const response = await h.call('PUT', `/v1/event_sink/${id}`, acme, { id, name: 'a\u0007b' });
    expect(response).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^name must not contain control characters/) } });
    expect((await h.call('GET', `/v1/event_sink/${id}`, acme)).body.event_sink.name).toBe(name);
    expect((await h.call('PUT', `/v1/event_sink/${id}`, acme, { id, description: 'two\nlines\twith a tab' })).status).toBe(200);
  });

  it('update: a url embedding a loopback address in IPv6 is refused, and the sink keeps its url', async () => {
    const id = (await create(acme, { Webhook: { url: 'https://a.example.com/' } })).body.event_sink.id;
    for (const url of ['http://[::ffff:0:127.0.0.1]/', 'http://[2002:7f00:1::]/', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/']) {
      const response = await h.call('PUT', `/v1/event_sink/${id}`, acme, { id, event_sink_args: { Webhook: { url } } });
      expect(response, url).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^event_sink_args\.Webhook\.url points at a loopback address \(embedded in/) } });
    }
    expect((await h.call('GET', `/v1/event_sink/${id}`, acme)).body.event_sink.configuration.Webhook.url).toBe('https://a.example.com/');
  });

  it('update: the body id must be the path id, and a chat integration must be the tenant', async () => {
    const id = (await create(acme, { Chat: { channel_id: 'C1', chat_integration_id: acmeChat } })).body.event_sink.id;
    expect((await h.call('PUT', `/v1/event_sink/${id}`, acme, { id: 'other', name: 'x' })).body.error).toMatch(/^id "other" does not match/);
    const foreign = await h.call('PUT', `/v1/event_sink/${id}`, acme, { id, event_sink_args: { Chat: { chat_integration_id: globexChat } } });
    expect(foreign).toMatchObject({ status: 400, body: { error: expect.stringMatching(/chat_integration_id: chat integration .* not found/) } });
    expect((await h.call('GET', `/v1/event_sink/${id}`, acme)).body.event_sink.configuration.Chat.chat_integration_id).toBe(acmeChat);
  });
});

describe('tenancy, deletion and audit', () => {
  it('another tenant cannot read, change, delete or list a sink', async () => {
    const id = (await create(acme, { Webhook: { url: 'https://a.example.com/' } })).body.event_sink.id;
    expect((await h.call('GET', `/v1/event_sink/${id}`, globex)).status).toBe(404);
    expect((await h.call('PUT', `/v1/event_sink/${id}`, globex, { id, name: 'mine' })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/event_sink/${id}`, globex)).status).toBe(404);
    expect((await h.call('GET', '/v1/event_sink?tenant_id=acme', globex)).status).toBe(403);
    expect((await create(globex, { Webhook: { url: 'https://a.example.com/' } })).status).toBe(403);
    const theirs = await h.call('GET', '/v1/event_sink?tenant_id=globex', globex);
    expect(theirs.body.data.event_sinks.map((s: { id: string }) => s.id)).not.toContain(id);
  });

  it('deleting a sink removes it from the rules that used it, in the audit trail too', async () => {
    const gone = (await create(acme, { Webhook: { url: 'https://gone.example.com/' } })).body.event_sink.id;
    const kept = (await create(acme, { Webhook: { url: 'https://kept.example.com/' } })).body.event_sink.id;
    const rule = (name: string, sinks: string[]) =>
      h.call('POST', '/v1/detection_rule', acme, {
        tenant_id: 'acme', name, description: '', time_range_s: 300, run_frequency_s: 60, enabled_state_override: 'Active', severity: 'High', query_text: 'x', event_sink_ids: sinks,
      });
    const first = (await rule('uses both', [gone, kept])).body.detection_rule.id;
    const second = (await rule('uses gone', [gone])).body.detection_rule.id;
    clock.advance(5_000);
    expect((await h.call('DELETE', `/v1/event_sink/${gone}`, acme)).body).toEqual({ id: gone, tenant_id: 'acme' });
    const afterFirst = (await h.call('GET', `/v1/detection_rule/${first}`, acme)).body.detection_rule;
    expect(afterFirst.event_sink_ids).toEqual([kept]);
    expect(afterFirst.updated_at).toBe(new Date(clock.nowMs()).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    expect((await h.call('GET', `/v1/detection_rule/${second}`, acme)).body.detection_rule.event_sink_ids).toEqual([]);

    const entries = await h.runtime.store.audit.listUnshipped(10_000);
    const deletion = entries.find((e) => e.action === 'event_sink.delete' && e.target === gone);
    expect(deletion?.details).toMatchObject({ detached_from_rules: [first, second].sort() });
    const detached = entries.filter((e) => e.action === 'detection_rule.update' && e.details.removed_event_sink_id === gone).map((e) => e.target);
    expect(detached.sort()).toEqual([first, second].sort());
  });

  it('records sink and integration changes in the audit trail without a secret', async () => {
    const entries = await h.runtime.store.audit.listUnshipped(10_000);
    const actions = new Set(entries.map((e) => e.action));
    for (const action of ['event_sink.create', 'event_sink.update', 'event_sink.delete', 'chat_integration.create']) expect(actions).toContain(action);
    expectNoSecrets(entries);
  });

  it('keeps chat tokens sealed under a 0600 key file in the data dir', async () => {
    const dataDir = h.runtime.config.dataDir;
    expect(statSync(join(dataDir, 'secrets.key')).mode & 0o777).toBe(0o600);
    const [integration] = await h.runtime.store.chatIntegrations.list('acme');
    expect(integration?.sealedToken).toMatch(/^v1\./);
    expect(integration?.tokenHint).toBe('xoxb-…cret');
    expect(h.runtime.services.chatIntegrations.tokenOf(integration!)).toBe(chatToken);
    for (const file of ['vigil.db', 'vigil.db-wal']) {
      const path = join(dataDir, file);
      if (existsSync(path)) expect(readFileSync(path).includes(Buffer.from('secretsecret'))).toBe(false);
    }
  });

  it('logs no secret, even at trace level', async () => {
    const lines = new PassThrough();
    let logged = '';
    lines.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    const app = await buildApi({ services: h.runtime.services, logger: pino({ level: 'trace' }, lines), maxJsonBodyBytes: 1 << 20, maxIngestBytes: 1 << 20, readiness: [], version: 'test' });
    const send = (method: 'POST' | 'PUT', url: string, body: unknown) =>
      app.inject({ method, url, headers: { authorization: `Bearer ${acme}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const created = await send('POST', '/v1/event_sink', { tenant_id: 'acme', name: 'n', description: '', event_sink_args: { Pager: { integration_key: pagerKey } } });
    await send('PUT', `/v1/event_sink/${created.json().event_sink.id}`, { id: created.json().event_sink.id, event_sink_args: { Webhook: { url: 'https://a.example.com/', headers: { Authorization: headerSecret }, signing_secret: signingSecret } } });
    await send('POST', '/v1/event_sink', { tenant_id: 'acme', name: 'n', description: '', event_sink_args: { Webhook: { url: 'http://127.0.0.1/', signing_secret: signingSecret } } });
    await app.close();
    expect(logged).toContain('request completed');
    for (const secret of [...secrets, acme]) expect(logged).not.toContain(secret);
  });
});

describe('with allow_private_destinations', () => {
  // chDB opens one data directory per process, so this second deployment runs without an engine:
  // rules and sinks need only the store.
  let app: Awaited<ReturnType<typeof buildApi>>;
  let services: ReturnType<typeof createServices>;
  beforeAll(async () => {
    const store = await createSqliteStore(':memory:');
    await store.migrate();
    services = createServices({
      store,
      engine: null,
      clock,
      logger: silentLogger,
      ingest: { batchRows: 1000, batchBytes: 1 << 20 },
      secrets: new SecretBox(() => randomBytes(32)),
      allowPrivateDestinations: true,
    });
    app = await buildApi({ services, logger: pino({ level: 'silent' }), maxJsonBodyBytes: 1 << 20, maxIngestBytes: 1 << 20, readiness: [], version: 'test' });
  });
  afterAll(async () => {
    await app?.close();
    await services?.store.close();
  });

  it('accepts private and loopback destinations, and still refuses other schemes', async () => {
    const { secret } = await services.keys.create({ tenants: ['acme'] }, cliActor);
    const post = (url: string) =>
      app.inject({
        method: 'POST',
        url: '/v1/event_sink',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ tenant_id: 'acme', name: 'local', description: '', event_sink_args: { Webhook: { url } } }),
      });
    for (const url of ['http://127.0.0.1:9000/hook', 'http://10.0.0.8/', 'http://webhook-receiver:8080/in', 'http://[::1]/']) expect((await post(url)).statusCode).toBe(200);
    expect((await post('ftp://10.0.0.8/')).statusCode).toBe(400);
    expect((await post('http://user:pw@10.0.0.8/')).statusCode).toBe(400);
  });
});
