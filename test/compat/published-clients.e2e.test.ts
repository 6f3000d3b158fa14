/**
 * The published clients against a real `vigil serve` on 127.0.0.1 (docs/compatibility.md): each
 * client's exact requests (paths, bodies, query strings, headers, as its code builds them), and
 * each answer parsed as the client parses it.
 *
 * - `scanner-client` 0.1.1 (PyPI, 2026-05), the Python SDK: every call of its wrappers, on a
 *   server with `api_compat: scanner` (its enums need the published names);
 * - `scanner-cli` 0.1.1 (PyPI, 2026-05): `validate`, `run-tests`, `sync`;
 * - the GitHub Action `scanner-inc/validate-detection-rules` at 9a54e73 (runs `scanner-cli
 *   validate`, then `run-tests` in its `validate_and_run_tests` mode);
 * - Tracecat's Scanner integration (`TracecatHQ/tracecat` at 78d0c74,
 *   `packages/tracecat-registry/tracecat_registry/integrations/scanner.py`): it reads JSON
 *   without models, so the setting changes only the names it sees (`PagerDuty` here, `Pager`
 *   without it).
 *
 * One server serves them all: starting one costs more than every call here together.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVigil, startVigilServer, type ServerProcess } from '../support/vigil-process.js';
import { httpxHeaders, httpxJson, httpxQuery, replay } from './support/replay.js';
import { cliRunTests, cliSync, cliValidate } from './support/scanner-cli.js';
import { ScannerSdk } from './support/scanner-sdk.js';
import { AdHocQueryProgressResponse, ModelError, NotFound } from './support/scanner-sdk-models.js';

interface Deployment {
  readonly dir: string;
  readonly server: ServerProcess;
  /** A key holding only the bootstrap tenant. */
  readonly key: string;
  /** The bootstrap tenant's id (a UUID; its name is `default`). */
  readonly tenantId: string;
  /** A chat integration of the tenant, as the operator adds one (`vigil integrations chat add`). */
  readonly chatIntegrationId: string;
}

let published: Deployment;

async function deploy(env: Record<string, string>): Promise<Deployment> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-compat-'));
  const server = await startVigilServer(dir, env);
  const created = await runVigil(['keys', 'create', '--tenant', 'default', '--name', 'published client', '--json'], { dataDir: dir });
  const { key, tenants } = JSON.parse(created.stdout) as { key: string; tenants: string[] };
  const tenantId = tenants[0] as string;
  const integration = await runVigil(['integrations', 'chat', 'add', '--tenant', 'default', '--token', 'xoxb-compat-test', '--name', 'soc', '--json'], { dataDir: dir });
  const chatIntegrationId = (JSON.parse(integration.stdout) as { chat_integration_id: string }).chat_integration_id;
  const lines = Array.from({ length: 12 }, (_, n) =>
    JSON.stringify({ '@timestamp': `2026-11-21T10:00:0${Math.floor(n / 4)}Z`, n, user: n % 2 === 0 ? 'alice' : 'bob', src: n % 3 === 0 ? '1.2.3.4' : '5.6.7.8' }),
  );
  const ingested = await fetch(`${server.url}/v1/ingest?tenant_id=${tenantId}&index=web&create_index=true`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: lines.join('\n') + '\n',
  });
  if (ingested.status !== 200) throw new Error(`ingest: ${ingested.status} ${await ingested.text()}`);
  return { dir, server, key, tenantId, chatIntegrationId };
}

beforeAll(async () => {
  published = await deploy({ VIGIL_API_COMPAT: 'scanner' });
}, 120_000);

afterAll(async () => {
  if (!published) return;
  await published.server.stop();
  rmSync(published.dir, { recursive: true, force: true });
});

const range = { start_time: '2026-11-21T00:00:00Z', end_time: '2026-11-22T00:00:00Z' };
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const ruleFile = (extra: string[] = [], tests: string[] = []) =>
  [
    '# schema: https://scanner.dev/schema/scanner-detection-rule.v1.json',
    'name: Many logins',
    'description: More than one login of a user',
    'enabled: true',
    'severity: High',
    'query_text: |-',
    '  user: alice',
    '  | stats count() as n by user',
    '  | where n > 1',
    'time_range_s: 300',
    'run_frequency_s: 60',
    ...extra,
    ...(tests.length === 0 ? [] : ['tests:', ...tests]),
  ].join('\n') + '\n';

const ruleTest = (name: string, logins: number, expected: boolean) => [
  `  - name: ${name}`,
  '    now_timestamp: "2026-05-15T00:03:00Z"',
  '    dataset_inline: |',
  ...Array.from({ length: logins }, (_, i) => `      {"timestamp":"2026-05-15T00:02:0${i}Z","user":"alice"}`),
  `    expected_detection_result: ${expected}`,
];

describe('scanner-client 0.1.1 (Python SDK): tenants and keys', () => {
  it('the bootstrap tenant has a UUID id, as uuid.UUID(tenant_id) needs, and a key holding it alone needs no tenant_id', async () => {
    expect(published.tenantId).toMatch(uuid);
    const sdk = new ScannerSdk(published.server.url, published.key);
    // StartAdHocQueryRequestData has no tenant_id at all.
    const started = await sdk.startQuery('*', range);
    expect(started.qr_id).toMatch(uuid);
  });
});

describe('scanner-client 0.1.1: event_sink', () => {
  it('creates, reads, lists (GET with a JSON body), updates and deletes Slack, PagerDuty and Webhook sinks, parsed as EventSink', async () => {
    const sdk = new ScannerSdk(published.server.url, published.key);
    const slackIntegration = published.chatIntegrationId;
    // create_slack_event_sink_args / create_pagerduty_event_sink_args / create_webhook_event_sink_args
    const slack = await sdk.createSink(published.tenantId, 'soc channel', 'alerts', { Slack: { slack_integration_id: slackIntegration, channel_id: 'C012AB3CD' } });
    expect(slack).toMatchObject({ event_sink_type: 'Slack', variant: 'Slack', name: 'soc channel' });
    expect(slack.configuration).toMatchObject({ Slack: { channel_id: 'C012AB3CD' } });
    const pager = await sdk.createSink(published.tenantId, 'on call', 'pages', { PagerDuty: { integration_key: 'a'.repeat(32) } });
    expect(pager).toMatchObject({ event_sink_type: 'PagerDuty', variant: 'PagerDuty' });
    const hook = await sdk.createSink(published.tenantId, 'soar', 'hook', { Webhook: { url: 'https://soar.example/hook' } });
    expect(hook).toMatchObject({ event_sink_type: 'Webhook', variant: 'Webhook', configuration: { Webhook: { url: 'https://soar.example/hook' } } });

    expect((await sdk.getSink(slack.id)).id).toBe(slack.id);
    const listed = await sdk.listSinks(published.tenantId);
    expect(listed.map((s) => s.id)).toEqual(expect.arrayContaining([slack.id, pager.id, hook.id]));
    const listRequest = sdk.sent.at(-1);
    expect(listRequest).toMatchObject({ method: 'GET', path: '/v1/event_sink', headers: { 'content-type': 'application/json' } });

    // update_slack_event_sink_args (no integration id), update_webhook_event_sink_args, update_pagerduty_event_sink_args
    const moved = await sdk.updateSink(slack.id, { name: 'soc', event_sink_args: { Slack: { channel_id: 'C999' } } });
    expect(moved).toMatchObject({ name: 'soc', configuration: { Slack: { channel_id: 'C999' } } });
    expect((await sdk.updateSink(hook.id, { event_sink_args: { Webhook: { url: 'https://soar.example/v2' } } })).configuration).toMatchObject({ Webhook: { url: 'https://soar.example/v2' } });
    expect((await sdk.updateSink(pager.id, { description: 'new', event_sink_args: { PagerDuty: { integration_key: 'b'.repeat(32) } } })).description).toBe('new');

    expect(await sdk.deleteSink(pager.id)).toEqual({ id: pager.id, tenant_id: published.tenantId });
    await expect(sdk.getSink(pager.id)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('scanner-client 0.1.1: detection_rule', () => {
  it('creates with enabled (and starting_permissions, ignored with a Warning), reads, pages through list_all_iter, looks up by sync key, updates and deletes', async () => {
    const sdk = new ScannerSdk(published.server.url, published.key);
    const base = { tenant_id: published.tenantId, description: 'd', time_range_s: 300, run_frequency_s: 60, severity: 'Medium' as const, event_sink_ids: [] as string[] };
    const active = await sdk.createRule({ ...base, name: 'active', enabled: true, query_text: 'user: alice | count', sync_key: 'sdk-active' });
    expect(active).toMatchObject({ enabled: true, severity: 'Medium', sync_key: 'sdk-active', event_sink_ids: [] });
    const paused = await sdk.createRule({ ...base, name: 'paused', enabled: false, query_text: 'user: bob', starting_permissions: { permissions_by_role: { admin: ['Read', 'Write'] } } });
    expect(paused.enabled).toBe(false);
    for (let i = 0; i < 3; i++) await sdk.createRule({ ...base, name: `extra ${i}`, enabled: false, query_text: '*' });

    expect(await sdk.getRule(active.id)).toMatchObject({ id: active.id, enabled: true });
    // list_all sends no pagination; list with page_size 2 follows next_page_token to the end.
    expect((await sdk.listAllRules(published.tenantId)).map((r) => r.name)).toEqual(['active', 'paused', 'extra 0', 'extra 1', 'extra 2']);
    const names: string[] = [];
    let token: string | null | undefined;
    do {
      const page = await sdk.listRules(published.tenantId, { page_size: 2, ...(token ? { page_token: token } : {}) });
      names.push(...(page.data.detection_rules ?? []).map((r) => r.name as string));
      token = page.pagination?.next_page_token;
    } while (token);
    expect(names).toHaveLength(5);

    expect((await sdk.getRuleBySyncKey('sdk-active')).id).toBe(active.id);
    await expect(sdk.getRuleBySyncKey('no-such-key')).rejects.toBeInstanceOf(NotFound);

    const updated = await sdk.updateRule(active.id, { enabled: false, query_text: 'user: alice', severity: 'Critical' });
    expect(updated).toMatchObject({ enabled: false, severity: 'Critical', query_text: 'user: alice' });
    expect(await sdk.deleteRule(paused.id)).toEqual({ id: paused.id, tenant_id: published.tenantId });
  });

  it('answers the field the SDK sends but Vigil has no use for with 200 and a Warning header, never a 400', async () => {
    const body = {
      description: '',
      event_sink_ids: [],
      name: 'with permissions',
      query_text: '*',
      run_frequency_s: 60,
      tenant_id: published.tenantId,
      time_range_s: 60,
      debounce: true,
      enabled: true,
      severity: 'Low',
      starting_permissions: { permissions_by_role: { analyst: ['Read'] } },
    };
    const response = await replay(published.server.url, {
      method: 'POST',
      path: '/v1/detection_rule',
      headers: httpxHeaders({ authorization: `Bearer ${published.key}`, 'content-type': 'application/json' }),
      body: httpxJson(body),
    });
    expect(response.status).toBe(200);
    expect(response.headers.warning).toMatch(/^299 vigil ".*starting_permissions/);
  });
});

describe('scanner-client 0.1.1: query', () => {
  it('start_query then query_progress (show_intermediate_results as httpx writes it), parsed as AdHocQueryProgressResponse', async () => {
    const sdk = new ScannerSdk(published.server.url, published.key);
    const { qr_id } = await sdk.startQuery('user: alice | groupbycount src', range);
    let progress = await sdk.queryProgress(qr_id, true);
    for (let i = 0; i < 100 && !progress.is_completed; i++) {
      await new Promise((r) => setTimeout(r, 100));
      progress = await sdk.queryProgress(qr_id);
    }
    expect(progress.is_completed).toBe(true);
    expect(progress.results).toMatchObject({ table_type: 'GenericTable', column_tags: {} });
    expect(progress.results?.rows.map((r) => r.columns)).toEqual(
      expect.arrayContaining([
        { src: '1.2.3.4', '@q.count': 2 },
        { src: '5.6.7.8', '@q.count': 4 },
      ]),
    );
  });

  it('blocking_query with start_leid cursors pages through every event once; system columns read @scanner.', async () => {
    const sdk = new ScannerSdk(published.server.url, published.key);
    const seen: number[] = [];
    let cursor: unknown;
    for (let page = 0; page < 10; page++) {
      const result = await sdk.blockingQuery('*', { ...range, max_rows: 5, scan_back_to_front: false, ...(cursor ? { start_leid: cursor } : {}) });
      const rows = result.results?.rows ?? [];
      if (rows.length === 0) break;
      expect(result.results?.table_type).toBe('LogSearch');
      seen.push(...rows.map((r) => r.columns.n as number));
      cursor = rows.at(-1)?.row_id;
    }
    expect(seen).toEqual(Array.from({ length: 12 }, (_, n) => n));
    const first = await sdk.blockingQuery('* | head 1', range);
    expect(first.results?.column_ordering).toEqual(expect.arrayContaining(['@scanner.datetime']));
  });

  it('refuses an answer the SDK could not parse: the parser itself fails on a row without row_id', () => {
    expect(() => AdHocQueryProgressResponse({ is_completed: true, metadata: { n_bytes_scanned: 0 }, results: { column_ordering: [], column_tags: {}, rows: [{ a: 1 }] } })).toThrow(ModelError);
  });
});

describe('scanner-client 0.1.1: github_sync and lookup tables', () => {
  it('sync_repositories answers {tenant_id}, and says in a Warning header that Vigil pulls nothing', async () => {
    const sdk = new ScannerSdk(published.server.url, published.key);
    const { body, warning } = await sdk.syncGithubRepositories(published.tenantId);
    expect(body.tenant_id).toBe(published.tenantId);
    expect(warning).toMatch(/upload_git_repo_zipball/);
  });

  it('lists, reads, describes and deletes lookup tables (LookupTableFile), and a query uses one', async () => {
    const form = new FormData();
    form.append('name', 'bad_ips');
    form.append('file', new Blob(['indicator,feed\n1.2.3.4,otx\n']), 'bad_ips.csv');
    const uploaded = await fetch(`${published.server.url}/v1/lookup_table_file/upload/tenant/${published.tenantId}`, { method: 'POST', headers: { authorization: `Bearer ${published.key}` }, body: form });
    expect(uploaded.status).toBe(200);
    const sdk = new ScannerSdk(published.server.url, published.key);
    const [table] = await sdk.listLookupTables(published.tenantId);
    expect(table).toMatchObject({ name: 'bad_ips', num_rows: 1 });
    const id = table?.id as string;
    expect((await sdk.getLookupTable(id)).id).toBe(id);
    expect((await sdk.updateLookupTable(id, 'known bad')).description).toBe('known bad');
    const enriched = await sdk.blockingQuery('* | lookup bad_ips indicator as src | where feed = otx | count', range);
    expect(enriched.results?.rows[0]?.columns).toEqual({ '@q.count': 4 });
    expect(await sdk.deleteLookupTable(id)).toEqual({ id, tenant_id: published.tenantId });
  });
});

describe('scanner-cli 0.1.1 and the Action scanner-inc/validate-detection-rules@9a54e73', () => {
  const files = {
    'rules/many_logins.yml': ruleFile(['sync_key: many-logins', 'event_sink_keys: [soc]'], [...ruleTest('two logins fire', 2, true), ...ruleTest('one login does not', 1, false)]),
    'rules/README.md': '# not a rule',
  };

  it('validate: OK per file, exit 0; an invalid file exits 1 with its error', async () => {
    const sdk = new ScannerSdk(published.server.url, published.key);
    const ok = await cliValidate(sdk, files);
    expect(ok).toMatchObject({ exitCode: 0 });
    expect(ok.lines[0]).toMatch(/^rules\/many_logins.yml: OK/);
    expect(sdk.sent.at(-1)).toMatchObject({ method: 'POST', path: '/v1/detection_rule_yaml/validate', headers: { 'content-type': 'text/plain' } });
    const bad = await cliValidate(sdk, { 'bad.yml': ruleFile().replace('time_range_s: 300', 'time_range_s: 90') });
    expect(bad.exitCode).toBe(1);
  });

  it('run-tests: each test Passed (exit 0), a failing test exits 1; validate_and_run_tests passes on valid rules', async () => {
    const sdk = new ScannerSdk(published.server.url, published.key);
    const run = await cliRunTests(sdk, files);
    expect(run).toEqual({ exitCode: 0, lines: ['rules/many_logins.yml', 'two logins fire: OK', 'one login does not: OK'] });
    const failing = await cliRunTests(sdk, { 'f.yml': ruleFile([], ruleTest('expects an alert', 1, true)) });
    expect(failing).toEqual({ exitCode: 1, lines: ['f.yml', 'expects an alert: Test failed'] });
    // The Action's validate_and_run_tests: `scanner-cli validate`, then `scanner-cli run-tests`.
    const action = [await cliValidate(sdk, files), await cliRunTests(sdk, files)];
    expect(action.map((r) => r.exitCode)).toEqual([0, 0]);
  });

  it('sync: creates the rule of a new sync key (get_by_sync_key 404), updates it on the next run, enabled and sinks from the files', async () => {
    const sdk = new ScannerSdk(published.server.url, published.key);
    const sink = await sdk.createSink(published.tenantId, 'soc webhook', '', { Webhook: { url: 'https://soar.example/soc' } });
    const config = { event_sink_keys: { soc: [{ sink_id: sink.id }] } };
    expect(await cliSync(sdk, files, published.tenantId, config)).toEqual({ exitCode: 0, lines: ['many-logins: Created'] });
    const created = await sdk.getRuleBySyncKey('many-logins');
    expect((await sdk.getRule(created.id)).event_sink_ids).toEqual([sink.id]);
    const paused = { 'rules/many_logins.yml': files['rules/many_logins.yml'].replace('enabled: true', 'enabled: false') };
    expect(await cliSync(sdk, paused, published.tenantId, config)).toEqual({ exitCode: 0, lines: ['many-logins: Updated'] });
    expect((await sdk.getRule(created.id)).enabled).toBe(false);
  });
});

describe("Tracecat's Scanner integration (TracecatHQ/tracecat@78d0c74)", () => {
  /** `_request`: Authorization, Accept and Content-Type (application/json unless given) on every call, body or not. */
  const tracecat = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options: { params?: Record<string, string | number | boolean | null>; payload?: unknown; content?: string; contentType?: string } = {}) => {
    const headers = httpxHeaders({ authorization: `Bearer ${published.key}`, accept: 'application/json', 'content-type': options.contentType ?? 'application/json' });
    const body = options.payload !== undefined ? httpxJson(options.payload) : options.content !== undefined ? options.content : method === 'POST' || method === 'PUT' ? '' : undefined;
    return replay(published.server.url, { method, path: path + httpxQuery(options.params ?? {}), headers, ...(body === undefined ? {} : { body }) });
  };

  it('queries: run_query, start_query, get_query_progress, cancel_query (a POST without body, answered 204)', async () => {
    const ran = await tracecat('POST', '/v1/blocking_query', { payload: { query: 'user: bob | count', ...range } });
    expect(ran.json.results.rows).toEqual([{ row_id: expect.anything(), columns: { '@q.count': 6 } }]);
    const started = await tracecat('POST', '/v1/start_query', { payload: { query: '*', ...range, max_rows: 3 } });
    const progress = await tracecat('GET', `/v1/query_progress/${started.json.qr_id}`, { params: { show_intermediate_results: true } });
    expect(progress.status).toBe(200);
    const cancelled = await tracecat('POST', `/v1/cancel_query/${started.json.qr_id}`);
    expect(cancelled.status).toBe(204);
  });

  it('rules: list with pagination[...] params, create with enabled_state_override, get, update, delete (a DELETE with a JSON content type and no body)', async () => {
    const created = await tracecat('POST', '/v1/detection_rule', {
      payload: { tenant_id: published.tenantId, name: 'tracecat', description: '', time_range_s: 300, run_frequency_s: 60, enabled_state_override: 'Staging', severity: 'Informational', query_text: 'user: bob', event_sink_ids: [], tags: ['soar'] },
    });
    expect(created.status).toBe(200);
    const id = created.json.detection_rule.id as string;
    const listed = await tracecat('GET', '/v1/detection_rule', { params: { tenant_id: published.tenantId, 'pagination[page_size]': 10 } });
    expect(listed.json.data.detection_rules.map((r: { id: string }) => r.id)).toContain(id);
    expect((await tracecat('GET', `/v1/detection_rule/${id}`)).json.detection_rule.tags).toEqual(['soar']);
    const updated = await tracecat('PUT', `/v1/detection_rule/${id}`, { payload: { id, enabled_state_override: 'Active' } });
    expect(updated.json.detection_rule.enabled).toBe(true);
    const deleted = await tracecat('DELETE', `/v1/detection_rule/${id}`);
    expect(deleted).toMatchObject({ status: 200, json: { id, tenant_id: published.tenantId } });
  });

  it('sinks, indexes and the rule YAML endpoints (application/x-yaml)', async () => {
    const sink = await tracecat('POST', '/v1/event_sink', { payload: { tenant_id: published.tenantId, name: 'pd', description: '', event_sink_args: { PagerDuty: { integration_key: 'c'.repeat(32) } } } });
    expect(sink.json.event_sink.event_sink_type).toBe('PagerDuty');
    const sinks = (await tracecat('GET', '/v1/event_sink', { params: { tenant_id: published.tenantId } })).json.data.event_sinks;
    expect(sinks.map((s: { id: string }) => s.id)).toContain(sink.json.event_sink.id);
    expect((await tracecat('GET', `/v1/event_sink/${sink.json.event_sink.id}`)).status).toBe(200);
    expect((await tracecat('DELETE', `/v1/event_sink/${sink.json.event_sink.id}`)).status).toBe(200);
    const indexes = await tracecat('GET', '/v1/index', { params: { tenant_id: published.tenantId } });
    expect(indexes.json.data.indexes.map((i: { name: string }) => i.name)).toContain('web');
    const valid = await tracecat('POST', '/v1/detection_rule_yaml/validate', { content: ruleFile(), contentType: 'application/x-yaml' });
    expect(valid.json).toMatchObject({ is_valid: true, error: null });
    const tests = await tracecat('POST', '/v1/detection_rule_yaml/run_tests', { content: ruleFile([], ruleTest('fires', 2, true)), contentType: 'application/x-yaml' });
    expect(tests.json.results).toEqual({ fires: 'Passed' });
    const capacity = await tracecat('GET', '/v1/info/query_capacity', { params: { tenant_id: published.tenantId } });
    expect(capacity.json).toMatchObject({ this_month_used_query_capacity_gb: expect.any(Number), number_of_days_this_month: 30 });
  });
});
