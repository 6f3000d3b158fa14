/**
 * The detection rule API (interface 2.3-2.6, 3.1, 4.2) in process: every field through create →
 * get → list → update → get → delete, synced rules, tenancy and the audit trail. Validation is in
 * detection-rules-validation.int.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor, RuleTestRunner, scratchTenantPrefix } from '../../src/services/index.js';
import { ManualClock, silentLogger } from '../../src/core/index.js';
import { readRuleFile } from '../../src/detections/index.js';
import { aRule } from '../../src/store/testing/store-fixtures.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';
import { minimalRuleBody as minimal, webhookSinkBody as webhook } from '../support/rule-bodies.js';

const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let h: ApiHarness;
let acme: string;
let globex: string;
let both: string;
let sinkA: string;
let sinkB: string;


beforeAll(async () => {
  h = await openApiHarness({ clock });
  acme = await h.keyFor('acme');
  globex = await h.keyFor('globex');
  both = await h.keyFor('acme', 'globex');
  await h.runtime.services.indexes.create('acme', { name: 'web' }, cliActor);
  sinkA = (await h.call('POST', '/v1/event_sink', acme, webhook('acme', 'a'))).body.event_sink.id;
  sinkB = (await h.call('POST', '/v1/event_sink', acme, webhook('acme', 'b'))).body.event_sink.id;
}, 120_000);
afterAll(async () => h?.close());

describe('every field through create, get, list, update, get and delete', () => {
  it('keeps and shows every field of 2.3 in the shape of each response', async () => {
    const created = await h.call('POST', '/v1/detection_rule', acme, {
      tenant_id: 'acme',
      name: 'admin policy attached',
      description: 'AdministratorAccess attached to a principal',
      time_range_s: 600,
      run_frequency_s: 120,
      enabled_state_override: 'Staging',
      severity: 'Information',
      query_text: '@index=web eventName: AttachUserPolicy | stats count() by userIdentity.arn',
      event_sink_ids: [sinkB, sinkA],
      alert_per_row: true,
      debounce: false,
      dedup_window_s: 3600,
      tags: ['tactics.ta0004.privilege_escalation', 'custom tag'],
      sync_key: 'rules/admin.yml',
      alert_template: {
        info: [['Principal', '{{@alert.results_table.rows[0].userIdentity.arn}}']],
        actions: [['Runbook', 'https://runbooks.example.com/iam']],
      },
    });
    expect(created.status).toBe(200);
    const rule = created.body.detection_rule;
    const stored = {
      id: expect.stringMatching(uuid),
      tenant_id: 'acme',
      name: 'admin policy attached',
      description: 'AdministratorAccess attached to a principal',
      query_text: '@index=web eventName: AttachUserPolicy | stats count() by userIdentity.arn',
      time_range_s: 600,
      run_frequency_s: 120,
      debounce: false,
      alert_per_row: true,
      dedup_window_s: 3600,
      severity: 'Informational',
      alert_template: {
        info: [{ label: 'Principal', value: '{{@alert.results_table.rows[0].userIdentity.arn}}', use_for_dedup: false }],
        actions: [{ label: 'Runbook', value: 'https://runbooks.example.com/iam' }],
      },
      tags: ['tactics.ta0004.privilege_escalation', 'custom tag'],
      sync_key: 'rules/admin.yml',
      detection_rule_sync_id: null,
      prepared_query_id: expect.stringMatching(uuid),
      author_user_id: 'acme',
      created_at: '2026-11-21T12:00:00Z',
      updated_at: '2026-11-21T12:00:00Z',
      last_alerted_at: null,
    };
    // The create response shows the legacy pair in place of the state fields (2.3).
    expect(rule).toEqual({ ...stored, enabled: true, enabled_override: null, event_sink_ids: [sinkB, sinkA] });
    expect(rule).not.toHaveProperty('enabled_state_override');

    // Get, list and update show the state pair, and `enabled` too (the published SDK requires it).
    const full = { ...stored, id: rule.id, prepared_query_id: rule.prepared_query_id, enabled_state_override: 'Staging', enabled_state_synced: null, enabled: true };
    const got = await h.call('GET', `/v1/detection_rule/${rule.id}`, acme);
    expect(got).toMatchObject({ status: 200, body: { detection_rule: { ...full, event_sink_ids: [sinkB, sinkA] } } });
    expect(got.body.detection_rule).not.toHaveProperty('enabled_override');

    const listed = await h.call('GET', '/v1/detection_rule?tenant_id=acme&pagination[page_size]=1000', acme);
    const item = listed.body.data.detection_rules.find((r: { id: string }) => r.id === rule.id);
    expect(item).toEqual(full);
    expect(item).not.toHaveProperty('event_sink_ids');

    clock.advance(90_000);
    const changes = {
      id: rule.id,
      name: 'admin policy attached (v2)',
      description: 'now also roles',
      time_range_s: 3600,
      run_frequency_s: 300,
      alert_per_row: false,
      debounce: true,
      dedup_window_s: 0,
      enabled_state_override: 'Active',
      severity: 'Critical',
      query_text: 'eventName: (AttachUserPolicy AttachRolePolicy)',
      tags: [],
      event_sink_ids: [sinkA],
      sync_key: null,
      alert_template: { info: [{ label: 'Who', value: '{{ userIdentity.arn }}', use_for_dedup: true }] },
    };
    const updated = await h.call('PUT', `/v1/detection_rule/${rule.id}`, acme, changes);
    expect(updated.status).toBe(200);
    const after = {
      ...full,
      name: 'admin policy attached (v2)',
      description: 'now also roles',
      time_range_s: 3600,
      run_frequency_s: 300,
      alert_per_row: false,
      debounce: true,
      dedup_window_s: 0,
      enabled_state_override: 'Active',
      severity: 'Critical',
      query_text: 'eventName: (AttachUserPolicy AttachRolePolicy)',
      tags: [],
      sync_key: null,
      alert_template: { info: [{ label: 'Who', value: '{{ userIdentity.arn }}', use_for_dedup: true }], actions: [] },
      prepared_query_id: expect.stringMatching(uuid),
      updated_at: '2026-11-21T12:01:30Z',
      event_sink_ids: [sinkA],
    };
    expect(updated.body.detection_rule).toEqual(after);
    expect(updated.body.detection_rule.prepared_query_id).not.toBe(rule.prepared_query_id);
    expect(await h.call('GET', `/v1/detection_rule/${rule.id}`, acme)).toMatchObject({ status: 200, body: { detection_rule: updated.body.detection_rule } });

    // The same query text keeps its prepared query; null removes the template.
    const again = await h.call('PUT', `/v1/detection_rule/${rule.id}`, acme, { id: rule.id, query_text: changes.query_text, alert_template: null });
    expect(again.body.detection_rule.prepared_query_id).toBe(updated.body.detection_rule.prepared_query_id);
    expect(again.body.detection_rule.alert_template).toBeNull();

    expect(await h.call('DELETE', `/v1/detection_rule/${rule.id}`, acme)).toEqual(expect.objectContaining({ status: 200, body: { id: rule.id, tenant_id: 'acme' } }));
    expect((await h.call('GET', `/v1/detection_rule/${rule.id}`, acme)).status).toBe(404);
    expect((await h.call('DELETE', `/v1/detection_rule/${rule.id}`, acme)).status).toBe(404);
    expect((await h.call('PUT', `/v1/detection_rule/${rule.id}`, acme, { id: rule.id, name: 'x' })).status).toBe(404);
    const rest = await h.call('GET', '/v1/detection_rule?tenant_id=acme&pagination[page_size]=1000', acme);
    expect(rest.body.data.detection_rules.map((r: { id: string }) => r.id)).not.toContain(rule.id);
  });

  it('fills the defaults: debounce true, alert_per_row false, no dedup window, template, tags or sync key', async () => {
    const created = await h.call('POST', '/v1/detection_rule', acme, minimal());
    expect(created.body.detection_rule).toMatchObject({
      debounce: true,
      alert_per_row: false,
      dedup_window_s: null,
      alert_template: null,
      tags: [],
      sync_key: null,
      detection_rule_sync_id: null,
      last_alerted_at: null,
      event_sink_ids: [],
    });
  });

  it.each([
    ['Active', true],
    ['Staging', true],
    ['Paused', false],
  ])('a rule created %s is enabled=%s in the create response and keeps its state', async (state, enabled) => {
    const created = await h.call('POST', '/v1/detection_rule', acme, minimal({ enabled_state_override: state }));
    expect(created.body.detection_rule).toMatchObject({ enabled, enabled_override: null });
    const got = await h.call('GET', `/v1/detection_rule/${created.body.detection_rule.id}`, acme);
    expect(got.body.detection_rule).toMatchObject({ enabled_state_override: state, enabled_state_synced: null });
  });

  it.each(['Unknown', 'Informational', 'Low', 'Medium', 'High', 'Critical', 'Fatal', 'Other'])('keeps the severity %s', async (severity) => {
    const created = await h.call('POST', '/v1/detection_rule', acme, minimal({ severity }));
    expect(created.body.detection_rule.severity).toBe(severity);
  });

  it('a repeated sink id counts once, in the order first given', async () => {
    const created = await h.call('POST', '/v1/detection_rule', acme, minimal({ event_sink_ids: [sinkB, sinkA, sinkB] }));
    expect(created.body.detection_rule.event_sink_ids).toEqual([sinkB, sinkA]);
  });
});

describe('rules synced from a repository', () => {
  let id: string;
  beforeAll(async () => {
    const rule = aRule('acme', { detectionRuleSyncId: 'sync-source-1', syncKey: 'rules/synced.yml', enabledStateSynced: 'Active', enabledStateOverride: null, eventSinkIds: [sinkA] });
    await h.runtime.store.rules.insert(rule);
    id = rule.id;
  });

  it('show their sync id and synced state', async () => {
    const got = await h.call('GET', `/v1/detection_rule/${id}`, acme);
    expect(got.body.detection_rule).toMatchObject({ detection_rule_sync_id: 'sync-source-1', enabled_state_synced: 'Active', enabled_state_override: null });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['name', { name: 'renamed' }, 'name'],
    ['tags with the override', { enabled_state_override: 'Paused', tags: ['x'] }, 'tags'],
    ['the query', { query_text: 'x' }, 'query_text'],
    ['the sinks', { event_sink_ids: [] }, 'event_sink_ids'],
  ])('refuse changes to %s, saying why', async (_what, patch, field) => {
    const response = await h.call('PUT', `/v1/detection_rule/${id}`, acme, { id, ...patch });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(new RegExp(`^detection rule "${id}" is synced from a repository: only enabled_state_override can be updated through the API, not ${field}`));
  });

  it('take an override, and return to the synced state when it is set to null', async () => {
    const paused = await h.call('PUT', `/v1/detection_rule/${id}`, acme, { id, enabled_state_override: 'Paused' });
    expect(paused.body.detection_rule).toMatchObject({ enabled_state_override: 'Paused', enabled_state_synced: 'Active', name: expect.any(String) });
    const cleared = await h.call('PUT', `/v1/detection_rule/${id}`, acme, { id, enabled_state_override: null });
    expect(cleared.body.detection_rule).toMatchObject({ enabled_state_override: null, enabled_state_synced: 'Active' });
  });
});

describe('tenancy and audit', () => {
  it('another tenant cannot read, change, delete or list a rule: 404, as for an unknown id', async () => {
    const id = (await h.call('POST', '/v1/detection_rule', acme, minimal({ name: 'private' }))).body.detection_rule.id;
    expect((await h.call('GET', `/v1/detection_rule/${id}`, globex)).status).toBe(404);
    expect((await h.call('PUT', `/v1/detection_rule/${id}`, globex, { id, name: 'taken' })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/detection_rule/${id}`, globex)).status).toBe(404);
    const theirs = await h.call('GET', '/v1/detection_rule?tenant_id=globex&pagination[page_size]=1000', globex);
    expect(theirs.body.data.detection_rules.map((r: { id: string }) => r.id)).not.toContain(id);
    expect((await h.call('GET', `/v1/detection_rule/${id}`, both)).status).toBe(200);
    expect((await h.call('GET', `/v1/detection_rule/${id}`, acme)).body.detection_rule.name).toBe('private');
  });

  it('records every rule mutation in the tenant _audit index: who, what, when', async () => {
    const id = (await h.call('POST', '/v1/detection_rule', acme, minimal({ name: 'audited' }))).body.detection_rule.id;
    clock.advance(1000);
    await h.call('PUT', `/v1/detection_rule/${id}`, acme, { id, severity: 'High', enabled_state_override: 'Paused' });
    clock.advance(1000);
    await h.call('DELETE', `/v1/detection_rule/${id}`, acme);
    const entries = (await h.runtime.store.audit.listUnshipped(10_000)).filter((e) => e.target === id);
    expect(entries.map((e) => [e.action, e.tenantId])).toEqual([
      ['detection_rule.create', 'acme'],
      ['detection_rule.update', 'acme'],
      ['detection_rule.delete', 'acme'],
    ]);
    expect(entries[0]?.actor).toMatch(/^key:/);
    expect(entries[1]?.details).toMatchObject({ changes: ['enabled_state_override', 'severity'], enabled_state: 'Paused' });

    await h.runtime.services.maintenance?.shipAudit();
    const now = clock.nowMs();
    const found = await h.call('POST', '/v1/blocking_query', acme, {
      query: `@index=_audit target: "${id}" | groupbycount action`,
      start_time: new Date(now - 86_400_000).toISOString(),
      end_time: new Date(now + 60_000).toISOString(),
    });
    expect(found.status).toBe(200);
    const actions = found.body.results.rows.map((r: { columns: Record<string, unknown> }) => r.columns.action).sort();
    expect(actions).toEqual(['detection_rule.create', 'detection_rule.delete', 'detection_rule.update']);
  });

  it('maintenance deletes the events of a rule test whose process stopped before it could, an hour on', async () => {
    const check = readRuleFile(
      ['name: r', 'description: d', "query_text: 'x'", 'time_range_s: 300', 'run_frequency_s: 60', 'tests:', '  - name: t', '    expected_detection_result: true', '    now_timestamp: "2026-11-21T11:05:00Z"', '    dataset_inline: |', '      {"timestamp":"2026-11-21T11:02:00Z","m":"x"}'].join('\n'),
    );
    if (check.definition === null) throw new Error(JSON.stringify(check.diagnostics));
    const scratch = async () => (await h.engine.indexesWithEvents(scratchTenantPrefix)).map((index) => index.tenant);
    const before = await scratch();
    // A runner that never deletes its events stands for a server killed before it did.
    await new RuleTestRunner(h.engine, clock, silentLogger, { deleteScratchEvents: false }).runAll(check.definition);
    const left = (await scratch()).filter((tenant) => !before.includes(tenant));
    expect(left).toHaveLength(1);
    await h.runtime.services.maintenance?.runOnce();
    expect(await scratch()).toContain(left[0]);
    clock.advance(3_600_001);
    await h.runtime.services.maintenance?.runOnce();
    expect(await scratch()).not.toContain(left[0]);
  });

  it('the OpenAPI document describes the rule endpoints', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/detection_rule', '/v1/detection_rule/{id}']));
    expect(Object.keys(doc.paths['/v1/detection_rule/{id}'])).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
  });
});

describe('a method the path does not answer', () => {
  it('is 405 with Allow and an error body, where an unknown path stays 404', async () => {
    const id = (await h.call('POST', '/v1/detection_rule', acme, minimal())).body.detection_rule.id;
    const before = (await h.call('GET', `/v1/detection_rule/${id}`, acme)).body;
    const patch = await h.app.inject({ method: 'PATCH', url: `/v1/detection_rule/${id}?x=1`, headers: { authorization: `Bearer ${acme}`, 'content-type': 'application/json' }, payload: JSON.stringify({ id, name: 'patched' }) });
    expect(patch.statusCode).toBe(405);
    expect(patch.headers.allow).toBe('DELETE, GET, HEAD, PUT');
    expect(patch.json()).toEqual({ error: `method PATCH is not allowed on /v1/detection_rule/${id}: use DELETE, GET, HEAD, PUT` });
    expect((await h.call('GET', `/v1/detection_rule/${id}`, acme)).body).toEqual(before);

    const list = await h.app.inject({ method: 'DELETE', url: '/v1/detection_rule', headers: { authorization: `Bearer ${acme}` } });
    expect(list.statusCode).toBe(405);
    expect(list.headers.allow).toBe('GET, HEAD, POST');
    const sink = await h.app.inject({ method: 'PATCH', url: '/v1/event_sink/some-id', headers: { authorization: `Bearer ${acme}` } });
    expect(sink.statusCode).toBe(405);
    expect(sink.headers.allow).toContain('PUT');

    const unknown = await h.app.inject({ method: 'PATCH', url: '/v1/detection_rules/x', headers: { authorization: `Bearer ${acme}` } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'no route PATCH /v1/detection_rules/x' });
  });
});
