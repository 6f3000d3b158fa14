/**
 * Rule files over HTTP (detections.md 4.2, interface 2.5, E14-E15): the JSON Schema, validate,
 * run_tests on the real engine without touching any tenant's events, the upsert by push_key with
 * sink keys, and the round trip file → API object → file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVigil } from '../../src/cli/testing/run-vigil.js';
import { cliActor } from '../../src/services/index.js';
import { newId } from '../../src/core/index.js';
import { ruleRecord } from '../../src/detections/testing/rule-fixtures.js';
import { definitionOfApiFields, readRuleFile, ruleFileSchema } from '../../src/detections/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';
import { webhookSinkBody } from '../support/rule-bodies.js';

let h: ApiHarness;
let acme: string;
let globex: string;
let sinkA: string;
let sinkB: string;

beforeAll(async () => {
  h = await openApiHarness();
  acme = await h.keyFor('acme');
  globex = await h.keyFor('globex');
  sinkA = (await h.call('POST', '/v1/event_sink', acme, webhookSinkBody('acme', 'a'))).body.event_sink.id;
  sinkB = (await h.call('POST', '/v1/event_sink', acme, webhookSinkBody('acme', 'b'))).body.event_sink.id;
  await h.runtime.services.syncSources.create('acme', { pushKey: 'rules-repo', branch: 'main', sinkKeys: { high_severity_alerts: [sinkA, sinkB] } }, cliActor);
  await h.ingest('acme', 'web', ['{"timestamp":"2026-05-15T00:02:00Z","eventName":"Login","user":"real"}']);
}, 120_000);
afterAll(async () => h?.close());

/** Sends a YAML body. */
async function send(method: 'POST' | 'PUT', url: string, key: string | null, text: string, contentType = 'application/yaml') {
  const response = await h.app.inject({ method, url, headers: { 'content-type': contentType, ...(key ? { authorization: `Bearer ${key}` } : {}) }, payload: text });
  return { status: response.statusCode, body: response.json() };
}

const ruleText = (lines: string[] = []) =>
  [
    '# schema: https://scanner.dev/schema/scanner-detection-rule.v1.json',
    'name: Login',
    'description: A login',
    'severity: High',
    'query_text: |-',
    '  eventName: Login',
    '  | stats count() as n by user',
    'time_range_s: 300',
    'run_frequency_s: 60',
    ...lines,
  ].join('\n') + '\n';

const loginTest = (name: string, user: string, expected: boolean) => [
  `  - name: ${name}`,
  '    now_timestamp: "2026-05-15T00:03:00Z"',
  '    dataset_inline: |',
  `      {"timestamp":"2026-05-15T00:02:30Z","eventName":"${user === '' ? 'Logout' : 'Login'}","user":"${user}"}`,
  `    expected_detection_result: ${expected}`,
];

describe('GET /schema/detection-rule.v1.json', () => {
  it('serves the JSON Schema to anyone', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/schema/detection-rule.v1.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/schema\+json/);
    expect(response.json()).toEqual(ruleFileSchema());
  });
});

describe('POST /v1/detection_rule_yaml/validate', () => {
  it('answers is_valid with no error for a valid file, in any text content type', async () => {
    for (const type of ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/plain']) {
      expect(await send('POST', '/v1/detection_rule_yaml/validate', acme, ruleText(), type)).toEqual({ status: 200, body: { is_valid: true, error: null, warning: null, diagnostics: [] } });
    }
    // JSON is YAML too.
    const json = JSON.stringify({ name: 'n', description: 'd', query_text: 'x', time_range_s: 60, run_frequency_s: 60 });
    expect((await send('POST', '/v1/detection_rule_yaml/validate', acme, json, 'application/json')).body.is_valid).toBe(true);
  });

  it('answers every problem with its line and column, and unknown fields as warnings', async () => {
    const { status, body } = await send('POST', '/v1/detection_rule_yaml/validate', acme, ruleText(['enabled: On', 'colour: red']).replace('time_range_s: 300', 'time_range_s: 90'));
    expect(status).toBe(200);
    expect(body).toEqual({
      is_valid: false,
      error: 'time_range_s must be a whole number of minutes in seconds, from 60 to 2592000, got 90 at 8:15\nenabled must be one of Active, Staging, Paused or null (legacy: true for Active, false for Paused), got "On" at 10:10',
      warning: 'unknown field "colour" is ignored at 11:1',
      diagnostics: [
        expect.objectContaining({ severity: 'error', field: 'time_range_s', line: 8, column: 15, end_line: 8, end_column: 17 }),
        expect.objectContaining({ severity: 'error', field: 'enabled', line: 10, column: 10 }),
        expect.objectContaining({ severity: 'warning', field: 'colour', line: 11, column: 1 }),
      ],
    });
  });

  it('names the field of a template problem in the error text, as in its diagnostic', async () => {
    const { body } = await send('POST', '/v1/detection_rule_yaml/validate', acme, ruleText(['alert_template: {info: [{label: L, value: "{{ a b }}"}]}']));
    expect(body).toMatchObject({
      is_valid: false,
      error: "alert_template.info[0].value: unexpected 'b' in the expression at 10:49",
      diagnostics: [expect.objectContaining({ severity: 'error', field: 'alert_template.info[0].value', line: 10, column: 49 })],
    });
  });

  it('refuses a pager override the pager event cannot take, at its label', async () => {
    const { body } = await send('POST', '/v1/detection_rule_yaml/validate', acme, ruleText(['alert_template:', '  info:', '    - {label: "@pagerduty.payload", value: x}']));
    expect(body).toMatchObject({
      is_valid: false,
      error: expect.stringMatching(/^alert_template\.info\[0\]\.label "@pagerduty\.payload": payload cannot be set in a pager event: .* at 12:15$/),
      diagnostics: [expect.objectContaining({ field: 'alert_template.info[0].label', line: 12, column: 15 })],
    });
  });

  it("checks the query against a tenant's indexes when tenant_id is given", async () => {
    const text = ruleText().replace('  eventName: Login', '  @index=web eventName: Login');
    expect((await send('POST', '/v1/detection_rule_yaml/validate?tenant_id=acme', acme, text)).body.is_valid).toBe(true);
    const other = await send('POST', '/v1/detection_rule_yaml/validate?tenant_id=globex', globex, text);
    expect(other.body).toMatchObject({ is_valid: false, error: "query_text: unknown index 'web' at 6:10" });
    expect((await send('POST', '/v1/detection_rule_yaml/validate?tenant_id=acme', globex, text)).status).toBe(403);
  });

  it('needs an api key', async () => {
    expect((await send('POST', '/v1/detection_rule_yaml/validate', null, ruleText())).status).toBe(401);
  });
});

describe('POST /v1/detection_rule_yaml/run_tests', () => {
  it('runs each test on the engine and says what the query returned in its window', async () => {
    const { status, body } = await send('POST', '/v1/detection_rule_yaml/run_tests', acme, ruleText(['tests:', ...loginTest('fires', 'alice', true), ...loginTest('quiet', '', true)]));
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'TestsFailed',
      warning: null,
      results: { fires: 'Passed', quiet: 'Failed' },
      tests: [
        {
          name: 'fires',
          status: 'Passed',
          expected_detection_result: true,
          detection_result: true,
          window: { start_time: '2026-05-14T23:58:00.000000000Z', end_time: '2026-05-15T00:03:00.000000000Z' },
          column_ordering: ['user', '@q.count', 'n'],
          rows: [{ user: 'alice', '@q.count': 1, n: 1 }],
          row_count: 1,
        },
        expect.objectContaining({ name: 'quiet', status: 'Failed', detection_result: false, rows: [], row_count: 0 }),
      ],
    });
  });

  it("never shows or changes a tenant's events", async () => {
    const before = await h.call('POST', '/v1/blocking_query', acme, { tenant_id: 'acme', query: '* | count', start_time: '2026-05-14T00:00:00Z', end_time: '2026-05-16T00:00:00Z' });
    const { body } = await send('POST', '/v1/detection_rule_yaml/run_tests', acme, ruleText(['tests:', ...loginTest('only the dataset', 'alice', true)]));
    // The tenant's own event (user "real") is in the same window, yet the test sees only its dataset.
    expect(body.tests[0].rows).toEqual([{ user: 'alice', '@q.count': 1, n: 1 }]);
    const after = await h.call('POST', '/v1/blocking_query', acme, { tenant_id: 'acme', query: '* | count', start_time: '2026-05-14T00:00:00Z', end_time: '2026-05-16T00:00:00Z' });
    expect(after.body.results.rows).toEqual(before.body.results.rows);
    expect(before.body.results.rows[0].columns['@q.count']).toBe(1);
    // The scratch events are deleted in the background.
    for (let i = 0; i < 100; i++) {
      const left = await h.engine.query<{ n: string }>("SELECT count() AS n FROM logs WHERE startsWith(tenant, '~rule-test-')");
      if (Number(left.rows[0]?.n) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('scratch events were not deleted');
  });

  it('runs at most two test runs of one API key at once, answering 429 with Retry-After past that', async () => {
    const text = ruleText(['tests:', ...loginTest('fires', 'alice', true)]);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        h.app.inject({ method: 'POST', url: '/v1/detection_rule_yaml/run_tests', headers: { 'content-type': 'application/yaml', authorization: `Bearer ${acme}` }, payload: text }),
      ),
    );
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const answer of refused) {
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.json()).toEqual({ error: 'rule test runs: this caller has 2 under way, the most it may; retry shortly' });
    }
    const later = await send('POST', '/v1/detection_rule_yaml/run_tests', acme, text);
    expect(later.status).toBe(200);
  });

  it('answers 400 with every problem of an invalid file', async () => {
    const { status, body } = await send('POST', '/v1/detection_rule_yaml/run_tests', acme, ruleText(['tests:', '  - name: t', '    dataset_inline: "{"', '    expected_detection_result: true']));
    expect(status).toBe(400);
    expect(body.error).toMatch(/^tests\[0\]\.dataset_inline line 1: invalid JSON/);
    expect(body.diagnostics).toEqual([expect.objectContaining({ line: 12, column: expect.any(Number) })]);
  });
});

describe('PUT /v1/detection_rule_yaml (upsert by push_key)', () => {
  it('creates the rule, then updates only what changed, keyed by push_key', async () => {
    const text = ruleText(['push_key: login-rule', 'event_sink_keys: [high_severity_alerts]', 'tags: [a]']);
    const created = await send('PUT', '/v1/detection_rule_yaml?tenant_id=acme', acme, text);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      created: true,
      warning: null,
      detection_rule: { name: 'Login', sync_key: 'login-rule', enabled_state_override: 'Paused', event_sink_ids: [sinkA, sinkB], tags: ['a'], detection_rule_sync_id: null },
    });
    const rule = created.body.detection_rule;
    const again = await send('PUT', '/v1/detection_rule_yaml?tenant_id=acme', acme, text);
    expect(again.body).toMatchObject({ created: false, detection_rule: { id: rule.id, updated_at: rule.updated_at, prepared_query_id: rule.prepared_query_id } });
    const changed = await send('PUT', '/v1/detection_rule_yaml?tenant_id=acme', acme, text.replace('eventName: Login', 'eventName: SignIn').replace('tags: [a]', 'tags: [b]\nenabled: true'));
    expect(changed.body).toMatchObject({ created: false, detection_rule: { id: rule.id, tags: ['b'], enabled_state_override: 'Active', query_text: 'eventName: SignIn\n| stats count() as n by user' } });
    expect(changed.body.detection_rule.prepared_query_id).not.toBe(rule.prepared_query_id);
    const listed = await h.call('GET', '/v1/detection_rule?tenant_id=acme', acme);
    expect(listed.body.data.detection_rules.filter((r: { sync_key: string }) => r.sync_key === 'login-rule')).toHaveLength(1);
  });

  it('ends two concurrent upserts of a new push_key with one rule', async () => {
    const text = ruleText(['push_key: raced']);
    const both = await Promise.all([send('PUT', '/v1/detection_rule_yaml?tenant_id=acme', acme, text), send('PUT', '/v1/detection_rule_yaml?tenant_id=acme', acme, text)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.map((r) => r.body.created).sort()).toEqual([false, true]);
    expect(both[0]?.body.detection_rule.id).toBe(both[1]?.body.detection_rule.id);
  });

  it('takes a sink id as a key no sync source maps', async () => {
    const { body } = await send('PUT', '/v1/detection_rule_yaml?tenant_id=acme', acme, ruleText(['push_key: by-id', `event_sink_keys: [${sinkB}]`]));
    expect(body.detection_rule.event_sink_ids).toEqual([sinkB]);
  });

  it.each<[string, string[], RegExp, { line: number; column: number }?]>([
    ['without push_key', [], /^push_key is required to upsert a rule/],
    ['with an unknown sink key', ['push_key: k', 'event_sink_keys: [high_severity_alerts, nope]'], /^event_sink_keys\[1\] "nope" is neither mapped by a sync source of the tenant .* at 11:41$/, { line: 11, column: 41 }],
    ['with a bad field', ['push_key: k', 'severity: Severe'], /^severity must be one of .* at 10:11$/, { line: 10, column: 11 }],
    ['with a failing test and run_tests', ['push_key: k', 'tests:', ...loginTest('t', '', true)], /^the rule's tests did not pass: "t" expected a detection/],
  ])('refuses a file %s (400) and writes nothing', async (_what, lines, message, position) => {
    const url = `/v1/detection_rule_yaml?tenant_id=acme${lines.includes('tests:') ? '&run_tests=true' : ''}`;
    const text = ruleText(lines).replace('severity: High\n', lines.some((l) => l.startsWith('severity')) ? '' : 'severity: High\n');
    const { status, body } = await send('PUT', url, acme, text);
    expect(status).toBe(400);
    expect(body.error).toMatch(message);
    if (position) expect(body.diagnostics).toEqual([expect.objectContaining(position)]);
    expect((await h.runtime.services.store.rules.getBySyncKey('acme', 'k'))).toBeNull();
  });

  it("refuses a rule synced from a repository, and another tenant's key", async () => {
    // A rule as a repository sync leaves it: synced state, the source's id, its key.
    await h.runtime.services.store.rules.insert(
      ruleRecord({ id: newId(), tenantId: 'acme', syncKey: 'synced', detectionRuleSyncId: newId(), enabledStateOverride: null, enabledStateSynced: 'Active' }),
    );
    const { status, body } = await send('PUT', '/v1/detection_rule_yaml?tenant_id=acme', acme, ruleText(['push_key: synced']));
    expect(status).toBe(400);
    expect(body.error).toMatch(/^the rule with push_key "synced" \(.*\) is synced from a repository: change its file there$/);
    expect((await send('PUT', '/v1/detection_rule_yaml?tenant_id=acme', globex, ruleText(['push_key: other']))).status).toBe(403);
  });
});

describe('round trip: file → API object → file', () => {
  it('keeps every field the API object carries; tests and sink keys travel beside it', async () => {
    const text = ruleText([
      'enabled: Staging',
      'dedup_window_s: 3600',
      'debounce: false',
      'alert_per_row: true',
      'push_key: round-trip',
      'event_sink_keys: [high_severity_alerts]',
      'tags: [source.cloudtrail]',
      'alert_template:',
      '  info:',
      '    - {label: User, value: "{{results_table.rows[0].user}}", use_for_dedup: true}',
      '  actions:',
      '    - {label: Runbook, value: "https://runbooks.example.com/x"}',
      'tests:',
      ...loginTest('fires', 'alice', true),
    ]);
    const definition = readRuleFile(text).definition!;
    const { body } = await send('PUT', '/v1/detection_rule_yaml?tenant_id=acme', acme, text);
    const got = await h.call('GET', `/v1/detection_rule/${body.detection_rule.id}`, acme);
    expect(definitionOfApiFields(got.body.detection_rule, { eventSinkKeys: definition.eventSinkKeys, tests: definition.tests })).toEqual(definition);
  });
});

describe('OpenAPI', () => {
  it('documents the rule file endpoints', async () => {
    const spec = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/v1/detection_rule_yaml/validate', '/v1/detection_rule_yaml/run_tests', '/v1/detection_rule_yaml', '/schema/detection-rule.v1.json']));
  });
});

describe('vigil rules validate|test --api-url: the same commands through the server', () => {
  it('prints what the offline commands print', async () => {
    const address = await h.app.listen({ host: '127.0.0.1', port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'vigil-rule-files-remote-'));
    try {
      const good = join(dir, 'good.yml');
      const bad = join(dir, 'bad.yml');
      writeFileSync(good, ruleText(['tests:', ...loginTest('fires', 'alice', true), ...loginTest('quiet', '', true)]));
      writeFileSync(bad, ruleText(['colour: red']).replace('time_range_s: 300', 'time_range_s: 90'));
      const run = async (argv: string[]) => {
        const { status, out } = await runVigil([...argv, '--api-url', `${address}/`, '--api-key', acme]);
        return { status, out };
      };
      expect(await run(['rules', 'validate', '-f', good, bad])).toEqual({
        status: 1,
        out: `${good}: OK\n${bad}: time_range_s must be a whole number of minutes in seconds, from 60 to 2592000, got 90 at 8:15\n  warning: unknown field "colour" is ignored at 10:1\n`,
      });
      const tested = await run(['rules', 'test', '-f', good, bad, '--json']);
      expect(tested.status).toBe(1);
      expect(JSON.parse(tested.out)).toEqual({
        files: [
          { status: 'TestsFailed', file_path: good, tests: [{ name: 'fires', status: 'Passed' }, { name: 'quiet', status: 'Failed' }] },
          { status: 'Invalid', file_path: bad, error: 'time_range_s must be a whole number of minutes in seconds, from 60 to 2592000, got 90 at 8:15' },
        ],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
