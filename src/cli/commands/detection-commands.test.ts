import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliActor, type Services } from '../../services/index.js';
import { createSqliteStore } from '../../store/sqlite/index.js';
import { runVigil } from '../testing/run-vigil.js';
import { storeOnlyServices } from '../testing/store-only-services.js';

// `vigil rules`, `vigil sinks` and `vigil integrations chat` over real services on a store alone:
// they need no engine, so they work beside a running server.
let services: Services;
beforeEach(async () => {
  const store = await createSqliteStore(':memory:');
  await store.migrate();
  services = storeOnlyServices(store, Date.parse('2026-11-21T12:00:00Z'));
});
afterEach(async () => services.store.close());

const vigil = (argv: string[], stdin = '') => runVigil(argv, { openServices: async () => ({ services, close: async () => {} }) }, stdin);

const token = 'xoxb-1111-2222-abcdefghijklmnop';

describe('vigil integrations chat', () => {
  it('add prints the chat_integration_id; list shows it without the token; remove forgets it', async () => {
    const added = await vigil(['integrations', 'chat', 'add', '--tenant', 'acme', '--token', token, '--name', 'acme workspace']);
    expect(added).toMatchObject({ status: 0, err: '' });
    const id = added.out.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const listed = await vigil(['integrations', 'chat', 'list', '--json']);
    expect(JSON.parse(listed.out)).toEqual([
      { chat_integration_id: id, tenant_id: 'acme', name: 'acme workspace', api_url: null, token: 'xoxb-…mnop', created_at: '2026-11-21T12:00:00Z' },
    ]);
    expect(listed.out + (await vigil(['integrations', 'chat', 'list'])).out).not.toContain('abcdefghijklmnop');
    expect((await vigil(['integrations', 'chat', 'remove', id, '--tenant', 'globex'])).status).toBe(1);
    expect(await vigil(['integrations', 'chat', 'remove', id, '--tenant', 'acme'])).toMatchObject({ status: 0, out: `removed chat integration acme workspace (${id})\n` });
    expect(JSON.parse((await vigil(['integrations', 'chat', 'list', '--json'])).out)).toEqual([]);
  });

  it('refuses names with control characters, as sink and rule names, and API key names too', async () => {
    const bell = await vigil(['integrations', 'chat', 'add', '--tenant', 'acme', '--token', token, '--name', 'a\u0007b']);
    expect(bell).toMatchObject({ status: 2, err: expect.stringMatching(/^vigil: name must not contain control characters \(tabs and line breaks included\)/) });
    const sink = await vigil(['sinks', 'create', '--tenant', 'acme', '--name', 'x\u001b[2Jy', '--webhook-url', 'https://hooks.example.com/in']);
    expect(sink).toMatchObject({ status: 2, err: expect.stringMatching(/^vigil: name must not contain control characters/) });
    const key = await vigil(['keys', 'create', '--tenant', 'acme', '--name', 'two\nlines']);
    expect(key).toMatchObject({ status: 2, err: expect.stringMatching(/^vigil: name must not contain control characters/) });
    expect(await services.chatIntegrations.list('acme')).toEqual([]);
  });

  it('reads the token from standard input with --token -, and checks the API URL', async () => {
    const added = await vigil(['integrations', 'chat', 'add', '--tenant', 'acme', '--token', '-', '--api-url', 'https://chat.example.com/api', '--json'], `${token}\n`);
    const integration = JSON.parse(added.out);
    expect(integration).toMatchObject({ api_url: 'https://chat.example.com/api', token: 'xoxb-…mnop' });
    const [stored] = await services.chatIntegrations.list('acme');
    expect(services.chatIntegrations.tokenOf(stored!)).toBe(token);
    const local = await vigil(['integrations', 'chat', 'add', '--tenant', 'acme', '--token', token, '--api-url', 'http://localhost:9000/api']);
    expect(local.status).toBe(2);
    expect(local.err).toMatch(/api_url points at the local or internal name localhost/);
  });
});

describe('vigil sinks', () => {
  it('creates each variant from flags, lists, shows and deletes them, never printing a secret', async () => {
    const chat = (await vigil(['integrations', 'chat', 'add', '--tenant', 'acme', '--token', token])).out.trim();
    const webhook = JSON.parse(
      (
        await vigil([
          'sinks',
          'create',
          '--tenant',
          'acme',
          '--name',
          'soar',
          '--webhook-url',
          'https://hooks.example.com/in',
          '--header',
          'X-Token: hunter2-secret',
          '--signing-secret',
          'whsec_0123456789abcdef',
          '--json',
        ])
      ).out,
    );
    expect(webhook).toMatchObject({
      event_sink_type: 'Webhook',
      configuration: { Webhook: { url: 'https://hooks.example.com/in', header_names: ['X-Token'], has_signing_secret: true } },
    });
    const pager = await vigil(['sinks', 'create', '--tenant', 'acme', '--name', 'oncall', '--pager-integration-key', 'abcdefghijklmnopqrstuvwxyz012345']);
    expect(pager.out).toMatch(/^created Pager sink oncall \([0-9a-f-]+\) in tenant acme\n$/);
    const chatSink = JSON.parse((await vigil(['sinks', 'create', '--tenant', 'acme', '--name', 'room', '--chat-integration', chat, '--channel-id', 'C0SEC', '--json'])).out);
    expect(chatSink.configuration).toEqual({ Chat: { channel_id: 'C0SEC', chat_integration_id: chat } });

    const table = await vigil(['sinks', 'list', '--tenant', 'acme']);
    expect(table.out.split('\n')[0]).toMatch(/^ID\s+TYPE\s+NAME\s+DESTINATION$/);
    expect(table.out).toContain('https://hooks.example.com/in');
    expect(table.out).toContain('********2345');
    const json = (await vigil(['sinks', 'list', '--tenant', 'acme', '--json'])).out;
    expect(JSON.parse(json)).toHaveLength(3);
    for (const secret of ['hunter2-secret', 'whsec_0123456789abcdef', 'abcdefghijklmnopqrstuvwxyz012345', 'abcdefghijklmnop']) {
      expect(json + table.out).not.toContain(secret);
    }
    expect((await vigil(['sinks', 'get', webhook.id, '--tenant', 'acme'])).out).toBe(`Webhook sink soar (${webhook.id}): https://hooks.example.com/in\n`);
    expect((await vigil(['sinks', 'get', webhook.id, '--tenant', 'globex'])).status).toBe(1);

    const rule = await services.rules.create(
      'acme',
      { name: 'r', description: '', timeRangeS: 300, runFrequencyS: 60, enabledStateOverride: 'Active', severity: 'High', queryText: 'x', eventSinkIds: [webhook.id] },
      cliActor,
      null,
    );
    const deleted = await vigil(['sinks', 'delete', webhook.id, '--tenant', 'acme', '--json']);
    expect(JSON.parse(deleted.out)).toEqual({ id: webhook.id, tenant_id: 'acme', detached_from_rules: [rule.id] });
    expect((await services.rules.find(rule.id, () => true)).eventSinkIds).toEqual([]);
  });

  it('refuses flags naming no variant or two, and invalid arguments, with status 2', async () => {
    const none = await vigil(['sinks', 'create', '--tenant', 'acme', '--name', 'x']);
    expect(none).toMatchObject({ status: 2, err: expect.stringMatching(/exactly one of --webhook-url, --pager-integration-key or --chat-integration/) });
    expect((await vigil(['sinks', 'create', '--tenant', 'acme', '--name', 'x', '--webhook-url', 'https://a.example.com/', '--pager-integration-key', 'k'.repeat(32)])).status).toBe(
      2,
    );
    const loopback = await vigil(['sinks', 'create', '--tenant', 'acme', '--name', 'x', '--webhook-url', 'http://127.0.0.1/']);
    expect(loopback).toMatchObject({ status: 2, err: expect.stringMatching(/event_sink_args\.Webhook\.url points at a loopback address/) });
    expect((await vigil(['sinks', 'create', '--tenant', 'acme', '--name', 'x', '--webhook-url', 'https://a.example.com/', '--header', 'no colon'])).status).toBe(2);
    expect((await vigil(['sinks', 'create', '--tenant', 'acme', '--name', 'x', '--chat-integration', 'nope', '--channel-id', 'C1'])).status).toBe(2);
  });
});

describe('vigil rules', () => {
  it('lists, shows and deletes the rules of a tenant', async () => {
    const input = { description: 'd', timeRangeS: 600, runFrequencyS: 120, severity: 'Information', queryText: 'eventName: ConsoleLogin', eventSinkIds: [] };
    const staging = await services.rules.create('acme', { ...input, name: 'logins', enabledStateOverride: 'Staging' }, cliActor, null);
    await services.rules.create('globex', { ...input, name: 'theirs', enabledStateOverride: 'Active' }, cliActor, null);

    const table = await vigil(['rules', 'list', '--tenant', 'acme']);
    expect(table.status).toBe(0);
    expect(table.out.split('\n')).toEqual([
      expect.stringMatching(/^ID\s+STATE\s+SEVERITY\s+EVERY\s+LOOKBACK\s+UPDATED\s+NAME$/),
      expect.stringMatching(new RegExp(`^${staging.id}\\s+Staging\\s+Informational\\s+2m\\s+10m\\s+2026-11-21T12:00:00Z\\s+logins$`)),
      '',
    ]);
    const listed = JSON.parse((await vigil(['rules', 'list', '--tenant', 'acme', '--json'])).out);
    expect(listed).toEqual([expect.objectContaining({ id: staging.id, enabled_state_override: 'Staging' })]);
    expect(listed[0]).not.toHaveProperty('event_sink_ids');

    const shown = JSON.parse((await vigil(['rules', 'get', staging.id, '--tenant', 'acme', '--json'])).out);
    expect(shown).toMatchObject({ id: staging.id, event_sink_ids: [], severity: 'Informational', author_user_id: null });
    expect((await vigil(['rules', 'get', staging.id, '--tenant', 'acme'])).out).toContain('state:        Staging');
    expect((await vigil(['rules', 'get', staging.id, '--tenant', 'acme'])).out).toContain('evaluated to: not yet');
    expect((await vigil(['rules', 'get', staging.id, '--tenant', 'globex'])).err).toMatch(/not found/);

    expect(JSON.parse((await vigil(['rules', 'delete', staging.id, '--tenant', 'acme', '--json'])).out)).toEqual({ id: staging.id, tenant_id: 'acme' });
    expect((await vigil(['rules', 'list', '--tenant', 'acme'])).out).toBe('tenant acme has no detection rules\n');
  });
});
