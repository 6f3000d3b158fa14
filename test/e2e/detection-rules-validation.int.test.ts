/**
 * Detection rule validation (interface 2.3-2.6, 4.2, 8) in process: every rule with a failing
 * case on create and on update, each answering 400 with a message naming the field and leaving
 * nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/services/index.js';
import { ManualClock } from '../../src/core/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';
import { minimalRuleBody as minimal, webhookSinkBody as webhook } from '../support/rule-bodies.js';

const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
let h: ApiHarness;
let acme: string;
let globex: string;
let sinkA: string;
let globexSink: string;


beforeAll(async () => {
  h = await openApiHarness({ clock });
  acme = await h.keyFor('acme');
  globex = await h.keyFor('globex');
  await h.runtime.services.indexes.create('acme', { name: 'web' }, cliActor);
  sinkA = (await h.call('POST', '/v1/event_sink', acme, webhook('acme', 'a'))).body.event_sink.id;
  globexSink = (await h.call('POST', '/v1/event_sink', globex, webhook('globex', 'g'))).body.event_sink.id;
}, 120_000);
afterAll(async () => h?.close());

describe('create validation: 400 naming the field', () => {
  const template = (value: string) => ({ alert_template: { info: [{ label: 'x', value }] } });
  it.each<[string, Record<string, unknown>, RegExp]>([
    ...['name', 'description', 'time_range_s', 'run_frequency_s', 'enabled_state_override', 'severity', 'query_text', 'event_sink_ids'].map(
      (field) => [`without ${field}`, { [field]: undefined }, new RegExp(`missing required field ${field}`)] as [string, Record<string, unknown>, RegExp],
    ),
    ['a lookback under a minute', { time_range_s: 30 }, /^time_range_s must be a whole number of minutes/],
    ['a lookback of part minutes', { time_range_s: 90 }, /^time_range_s/],
    ['a fractional lookback', { time_range_s: 120.5 }, /^time_range_s/],
    ['a lookback over 30 days', { time_range_s: 31 * 86_400 }, /^time_range_s/],
    ['a frequency of part minutes', { run_frequency_s: 150 }, /^run_frequency_s/],
    ['a frequency under a minute', { run_frequency_s: 0 }, /^run_frequency_s/],
    ['a frequency over the lookback', { time_range_s: 300, run_frequency_s: 600 }, /^run_frequency_s \(600\) must be at most time_range_s \(300\)/],
    ['a text lookback', { time_range_s: 'five minutes' }, /time_range_s/],
    ['a query that does not parse', { query_text: 'user: bob and x != 3' }, /^query_text: '!=' is not a filter operator at 1:17/],
    ['a query naming an unknown index', { query_text: '@index=nope x' }, /^query_text: unknown index 'nope' at 1:8/],
    ['an unfinished pipeline', { query_text: 'x | where' }, /^query_text: expected a filter after 'where' at 1:10/],
    ['an empty query', { query_text: '  ' }, /^query_text must not be empty/],
    ['an unknown severity', { severity: 'Severe' }, /severity must be one of Unknown, Informational/],
    ['a lower-case severity', { severity: 'high' }, /severity/],
    ['an unknown state', { enabled_state_override: 'On' }, /enabled_state_override must be one of Active, Staging, Paused/],
    ['a null state', { enabled_state_override: null }, /enabled_state_override/],
    ['an unknown sink', { event_sink_ids: ['no-such-sink'] }, /^event_sink_ids\[0\]: event sink "no-such-sink" not found$/],
    ['a sink of another tenant', { event_sink_ids: ['SINK_A', 'GLOBEX_SINK'] }, /^event_sink_ids\[1\]: event sink "[0-9a-f-]+" not found$/],
    ['sink ids that are not strings', { event_sink_ids: [{}] }, /event_sink_ids\.0 must be string/],
    ['sink ids that are not a list', { event_sink_ids: { id: 'SINK_A' } }, /event_sink_ids must be array/],
    ['a tag that is not a string', { tags: ['ok', { a: 1 }] }, /tags\.1 must be string/],
    ['an empty tag', { tags: ['ok', ''] }, /^tags\[1\] must not be empty/],
    ['too many tags', { tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, /^tags must have at most 100/],
    ['an empty name', { name: '' }, /^name must not be empty/],
    ['a name with a bell', { name: 'a\u0007b' }, /^name must not contain control characters/],
    ['a name on two lines', { name: 'a\nb' }, /^name must not contain control characters \(tabs and line breaks included\)$/],
    ['a tag with a tab', { tags: ['a\tb'] }, /^tags\[0\] must not contain control characters/],
    ['a negative dedup window', { dedup_window_s: -1 }, /dedup_window_s/],
    ['a text debounce', { debounce: 'sometimes' }, /debounce/],
    ['a text alert_per_row', { alert_per_row: 'often' }, /alert_per_row/],
    ['an empty sync key', { sync_key: '' }, /^sync_key must not be empty/],
    ['an unknown field', { surprise: 1 }, /unknown field surprise/],
    ['a template that is a list', { alert_template: [] }, /alert_template/],
    ['a template with an unknown key', { alert_template: { info: [], links: [] } }, /alert_template: unknown field links/],
    ['a template item with an unknown key', { alert_template: { info: [{ label: 'a', value: 'b', dedup: true }] } }, /alert_template\.info\.0: unknown field dedup/],
    ['a pair of three', { alert_template: { actions: [['a', 'b', 'c']] } }, /alert_template\.actions\.0/],
    ['an empty label', { alert_template: { info: [{ label: ' ', value: 'b' }] } }, /^alert_template\.info\[0\]\.label must be a non-empty string/],
    ['an expression that does not parse', template('user {{ user + }}'), /^alert_template\.info\[0\]\.value: expected an expression at 1:16$/],
    ['an expression with two values', template('{{ a b }}'), /^alert_template\.info\[0\]\.value: unexpected 'b' in the expression at 1:6$/],
    ['an unclosed placeholder', template('hello {{ user'), /^alert_template\.info\[0\]\.value: unclosed '\{\{' at 1:7$/],
    ['an empty placeholder', { alert_template: { actions: [['Open', 'https://x.example.com/{{}}']] } }, /^alert_template\.actions\[0\]\.value: empty '\{\{ \}\}' at 1:23$/],
    ['a pager override of the whole payload', { alert_template: { info: [{ label: 'User', value: 'x' }, { label: '@pagerduty.payload', value: 'x' }] } }, /^alert_template\.info\[1\]\.label "@pagerduty\.payload": payload cannot be set in a pager event/],
    ['a pager severity the pager does not know', { alert_template: { info: [['@pagerduty.payload.severity', 'High']] } }, /^alert_template\.info\[0\]\.value \(@pagerduty\.payload\.severity\) must be one of critical, error, warning, info, got "High"$/],
  ])('refuses %s', async (_what, patch, message) => {
    const body: Record<string, unknown> = minimal();
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete body[key];
      else body[key] = JSON.parse(JSON.stringify(value).replaceAll('"SINK_A"', JSON.stringify(sinkA)).replaceAll('"GLOBEX_SINK"', JSON.stringify(globexSink)));
    }
    const before = (await h.call('GET', '/v1/detection_rule?tenant_id=acme&pagination[page_size]=1000', acme)).body.data.detection_rules.length;
    const response = await h.call('POST', '/v1/detection_rule', acme, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(message);
    const after = (await h.call('GET', '/v1/detection_rule?tenant_id=acme&pagination[page_size]=1000', acme)).body.data.detection_rules.length;
    expect(after).toBe(before);
  });

  it('gives the position of every query problem in diagnostics', async () => {
    const response = await h.call('POST', '/v1/detection_rule', acme, minimal({ query_text: 'a != 1 and b != 2' }));
    expect(response.status).toBe(400);
    expect(response.body.diagnostics.map((d: { column: number }) => d.column)).toEqual([3, 14]);
  });

  it('a sync key names one rule of the tenant: a second answers 409', async () => {
    expect((await h.call('POST', '/v1/detection_rule', acme, minimal({ sync_key: 'unique-key' }))).status).toBe(200);
    const second = await h.call('POST', '/v1/detection_rule', acme, minimal({ sync_key: 'unique-key' }));
    expect(second.status).toBe(409);
    expect(second.body.error).toMatch(/sync_key/);
    expect((await h.call('POST', '/v1/detection_rule', globex, minimal({ tenant_id: 'globex', sync_key: 'unique-key' }))).status).toBe(200);
  });

  it('a key without the tenant answers 403, and no key 401', async () => {
    expect((await h.call('POST', '/v1/detection_rule', globex, minimal())).status).toBe(403);
    expect((await h.call('GET', '/v1/detection_rule?tenant_id=acme', globex)).status).toBe(403);
    expect((await h.call('GET', '/v1/detection_rule?tenant_id=acme', 'vgl_not-a-key')).status).toBe(401);
  });
});

describe('update validation', () => {
  let id: string;
  beforeAll(async () => {
    id = (await h.call('POST', '/v1/detection_rule', acme, minimal({ time_range_s: 600, run_frequency_s: 300 }))).body.detection_rule.id;
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a body id that is not the path id', { id: 'another' }, /^id "another" does not match the id in the path/],
    ['a frequency over the lookback the rule keeps', { run_frequency_s: 1200 }, /^run_frequency_s \(1200\) must be at most time_range_s \(600\)/],
    ['a lookback under the frequency the rule keeps', { time_range_s: 120 }, /^time_range_s \(120\) must be at least run_frequency_s \(300\)$/],
    ['a null override on a rule made through the API', { enabled_state_override: null }, /^enabled_state_override can be null only for rules synced/],
    ['a sink of another tenant', { event_sink_ids: ['GLOBEX_SINK'] }, /^event_sink_ids\[0\]: event sink "[0-9a-f-]+" not found$/],
    ['a query that does not parse', { query_text: 'a: (b' }, /^query_text: /],
    ['an unknown field', { created_at: '2026-01-01T00:00:00Z' }, /unknown field created_at/],
    ['a template expression that does not parse', { alert_template: { actions: [{ label: 'a', value: '{{ ) }}' }] } }, /^alert_template\.actions\[0\]\.value: .* at 1:4$/],
  ])('refuses %s', async (_what, patch, message) => {
    const before = (await h.call('GET', `/v1/detection_rule/${id}`, acme)).body.detection_rule;
    const body = JSON.parse(JSON.stringify({ id, ...patch }).replaceAll('"GLOBEX_SINK"', JSON.stringify(globexSink)));
    const response = await h.call('PUT', `/v1/detection_rule/${id}`, acme, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(message);
    expect((await h.call('GET', `/v1/detection_rule/${id}`, acme)).body.detection_rule).toEqual(before);
  });

  it('requires the id in the body', async () => {
    const response = await h.call('PUT', `/v1/detection_rule/${id}`, acme, { name: 'x' });
    expect(response).toMatchObject({ status: 400, body: { error: expect.stringMatching(/missing required field id/) } });
  });

  it('an update giving nothing but the id changes nothing', async () => {
    const before = (await h.call('GET', `/v1/detection_rule/${id}`, acme)).body.detection_rule;
    clock.advance(1000);
    expect((await h.call('PUT', `/v1/detection_rule/${id}`, acme, { id })).body.detection_rule).toEqual(before);
  });
});

