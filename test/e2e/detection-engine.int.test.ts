/**
 * The detection engine end to end (issue 6; detections.md E1-E12): events ingested into the real
 * engine, sinks and rules created through the API, windows advanced on a hand-moved clock, and
 * exactly the alerts expected reaching stand-in receivers on 127.0.0.1, with their wire payloads.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vigilVersion } from '../../src/version.js';
import { iso, isoNs, minute, openDetectionHarness, type DetectionHarness } from '../support/detection-harness.js';

let d: DetectionHarness;

beforeAll(async () => {
  d = await openDetectionHarness(Date.parse('2026-11-21T12:00:00Z'));
}, 120_000);
afterAll(async () => d?.close());

const login = (user: string, atMs: number, extra: Record<string, unknown> = {}) => ({ '@timestamp': iso(atMs), eventName: 'ConsoleLogin', user, ...extra });

describe('an Active rule alerting three sinks', () => {
  it('sends the exact webhook, chat and pager payloads, and records the alert with its attempts', async () => {
    const key = await d.tenant('wire');
    const base = d.nextMinute();
    await d.ingest('wire', [login('alice', base - 2 * minute), login('bob', base - minute, { sourceIPAddress: '203.0.113.7' }), { '@timestamp': iso(base - minute), eventName: 'Other', user: 'carol' }]);
    const secret = 'whsec_0123456789abcdef';
    const webhookId = await d.webhookSink(key, 'wire', { signing_secret: secret, headers: { 'X-Team': 'secops' } });
    const chatId = await d.chatSink(key, 'wire', 'C0WIRE');
    const pagerKey = 'R0123456789abcdefghijklmnopqrstu';
    const pagerId = await d.pagerSink(key, 'wire', pagerKey);
    d.clock.set(base + 30_000);
    const ruleId = await d.rule(key, {
      tenant_id: 'wire',
      name: 'Console logins',
      description: 'Who logged in to the console.',
      severity: 'High',
      tags: ['source.cloudtrail'],
      query_text: '@index=logs eventName: ConsoleLogin | stats count() as logins by user',
      event_sink_ids: [webhookId, chatId, pagerId],
      alert_template: {
        info: [
          { label: 'User', value: '{{user}}', use_for_dedup: true },
          { label: 'Logins', value: '{{@alert.results_table.rows[0].logins}} of {{@alert.results_table.total_row_count}} users' },
        ],
        actions: [{ label: 'Runbook', value: 'https://runbooks.example.com/console' }],
      },
    });
    [d.webhook, d.chatApi, d.pagerApi].forEach((r) => (r.requests.length = 0));
    await d.run();

    const alerts = (await d.h.call('GET', '/v1/alert?tenant_id=wire', key)).body.data.alerts;
    expect(alerts).toHaveLength(1);
    const alertId = alerts[0].id;
    const firedNs = `${base + 30_000}000000`;

    expect(d.webhook.requests).toHaveLength(1);
    const hook = d.webhook.requests[0]!;
    expect(hook.body).toContain(`"timestamp":${firedNs},`);
    expect(JSON.parse(hook.body)).toEqual({
      id: alertId,
      detection_rule_id: ruleId,
      tenant_id: 'wire',
      severity: 'High',
      severity_id: 4,
      name: 'Console logins',
      description: 'Who logged in to the console.',
      query_text: '@index=logs eventName: ConsoleLogin | stats count() as logins by user',
      tags: ['source.cloudtrail'],
      detected_in_time_range: { start: isoNs(base - 5 * minute), end: isoNs(base) },
      timestamp: Number(firedNs),
      staging: false,
      results_table: { columns: ['user', '@q.count', 'logins'], rows: [{ user: 'alice', '@q.count': 1, logins: 1 }, { user: 'bob', '@q.count': 1, logins: 1 }], total_row_count: 2 },
      info: [
        { label: 'User', value: 'alice' },
        { label: 'Logins', value: '1 of 2 users' },
      ],
      actions: [{ label: 'Runbook', value: 'https://runbooks.example.com/console' }],
    });
    const t = Math.floor((base + 30_000) / 1000);
    expect(hook.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': `vigil/${vigilVersion}`,
      'x-vigil-alert-id': alertId,
      'x-team': 'secops',
      'x-vigil-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${hook.body}`).digest('hex')}`,
    });

    expect(d.chatApi.requests).toHaveLength(1);
    const chat = d.chatApi.requests[0]!;
    expect(chat.headers.authorization).toBe('Bearer xoxb-test-0000-secret');
    expect(JSON.parse(chat.body)).toEqual({
      channel: 'C0WIRE',
      text: '[High] Console logins',
      unfurl_links: false,
      unfurl_media: false,
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: '[High] Console logins', emoji: true } },
        { type: 'section', text: { type: 'mrkdwn', text: 'Who logged in to the console.' } },
        {
          type: 'section',
          fields: [
            { type: 'mrkdwn', text: '*User*\nalice' },
            { type: 'mrkdwn', text: '*Logins*\n1 of 2 users' },
          ],
        },
        { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Runbook', emoji: true }, url: 'https://runbooks.example.com/console' }] },
        { type: 'context', elements: [{ type: 'mrkdwn', text: `Window ${isoNs(base - 5 * minute)} – ${isoNs(base)} · 2 rows · source.cloudtrail` }] },
      ],
    });

    expect(d.pagerApi.requests).toHaveLength(1);
    expect(JSON.parse(d.pagerApi.requests[0]!.body)).toEqual({
      routing_key: pagerKey,
      event_action: 'trigger',
      dedup_key: ruleId,
      payload: {
        summary: 'Console logins',
        source: 'vigil',
        severity: 'error',
        timestamp: iso(base + 30_000),
        custom_details: {
          window: { start: isoNs(base - 5 * minute), end: isoNs(base) },
          row_count: 2,
          rows: [{ user: 'alice', '@q.count': 1, logins: 1 }, { user: 'bob', '@q.count': 1, logins: 1 }],
          User: 'alice',
          Logins: '1 of 2 users',
        },
      },
      links: [{ href: 'https://runbooks.example.com/console', text: 'Runbook' }],
      client: 'Vigil',
    });

    const detail = (await d.h.call('GET', `/v1/alert/${alertId}`, key)).body.alert;
    expect(detail).toMatchObject({ id: alertId, detection_rule_id: ruleId, status: 'delivered', name: 'Console logins', severity: 'High' });
    expect(detail.deliveries.map((x: any) => [x.event_sink_id, x.event_sink_type, x.status, x.attempt_count, x.attempts.map((a: any) => [a.outcome, a.http_status])])).toEqual([
      [webhookId, 'Webhook', 'delivered', 1, [['delivered', 200]]],
      [chatId, 'Chat', 'delivered', 1, [['delivered', 200]]],
      [pagerId, 'Pager', 'delivered', 1, [['delivered', 202]]],
    ]);
    expect((await d.h.call('GET', `/v1/detection_rule/${ruleId}`, key)).body.detection_rule.last_alerted_at).toBe(new Date(base + 30_000).toISOString().replace('.000Z', 'Z'));
    await d.dropRules('wire');
  });
});

describe('debounce over overlapping windows (E5)', () => {
  it('reports an event once with debounce, and every window without', async () => {
    const key = await d.tenant('debounce');
    const sink = await d.webhookSink(key, 'debounce');
    const base = d.nextMinute();
    await d.ingest('debounce', [login('alice', base - 30_000)]);
    d.clock.set(base + 30_000);
    const on = await d.rule(key, { tenant_id: 'debounce', name: 'debounced', query_text: '@index=logs eventName: ConsoleLogin | table(user)', event_sink_ids: [sink] });
    const off = await d.rule(key, { tenant_id: 'debounce', name: 'not debounced', debounce: false, query_text: '@index=logs eventName: ConsoleLogin | table(user)', event_sink_ids: [sink] });
    await d.run();
    await d.ingest('debounce', [login('bob', base + 20_000)]);
    d.clock.set(base + minute + 30_000);
    await d.run();
    d.clock.set(base + 2 * minute + 30_000);
    await d.run();
    const rowsOf = (ruleId: string) => d.webhookBodies('debounce').filter((b) => b.detection_rule_id === ruleId).map((b) => b.results_table.rows.map((r: any) => r.user));
    expect(rowsOf(on)).toEqual([['alice'], ['bob']]);
    expect(rowsOf(off)).toEqual([['alice'], ['alice', 'bob'], ['alice', 'bob']]);
    await d.dropRules('debounce');
  });
});

describe('rules sharing a window', () => {
  it('evaluates filter rules of one window in one statement, each alerting exactly its own events', async () => {
    const key = await d.tenant('shared');
    const sink = await d.webhookSink(key, 'shared');
    const base = d.nextMinute();
    const event = (user: string, action: string, at: number) => ({ '@timestamp': iso(base - 50_000 + at * 1000), user, action });
    await d.ingest('shared', [event('alice', 'login', 1), event('bob', 'delete', 2), event('bob', 'login', 3), event('carol', 'delete', 4), event('alice', 'delete', 5)]);
    d.clock.set(base + 30_000);
    const queries = {
      alice: '@index=logs user: alice',
      deletes: '@index=logs action: delete',
      bobLogin: '@index=logs user: bob action: login',
      nobody: '@index=logs user: nobody',
      notAlice: '@index=logs not user: alice', // no text-index token: runs alone
      perUser: '@index=logs action: delete | stats count() as n by user', // a pipeline: runs alone
    };
    const ids: Record<string, string> = {};
    for (const [name, query_text] of Object.entries(queries)) {
      ids[name] = await d.rule(key, { tenant_id: 'shared', name, query_text, time_range_s: 60, event_sink_ids: [sink] });
    }
    const statements: string[] = [];
    const query = d.h.engine.query.bind(d.h.engine);
    const queryEvents = d.h.engine.queryEvents.bind(d.h.engine);
    d.h.engine.query = (sql, options) => {
      statements.push(sql);
      return query(sql, options);
    };
    d.h.engine.queryEvents = (sql, answer, options) => {
      statements.push(sql);
      return queryEvents(sql, answer, options);
    };
    try {
      await d.run();
    } finally {
      d.h.engine.query = query;
      d.h.engine.queryEvents = queryEvents;
    }
    const ruleStatements = statements.filter((sql) => sql.includes(' FROM logs WHERE ') && !sql.includes('INSERT'));
    expect(ruleStatements.filter((sql) => sql.includes('batch_member'))).toHaveLength(1);
    expect(ruleStatements).toHaveLength(3);
    const alerted = (name: string) =>
      d.webhookBodies('shared')
        .filter((b) => b.detection_rule_id === ids[name])
        .map((b) => b.results_table.rows.map((r: any) => (r.n === undefined ? `${r.user} ${r.action}` : `${r.user} ${r.n}`)));
    expect(alerted('alice')).toEqual([['alice login', 'alice delete']]);
    expect(alerted('deletes')).toEqual([['bob delete', 'carol delete', 'alice delete']]);
    expect(alerted('bobLogin')).toEqual([['bob login']]);
    expect(alerted('nobody')).toEqual([]);
    expect(alerted('notAlice')).toEqual([['bob delete', 'bob login', 'carol delete']]);
    expect(alerted('perUser').map((rows: string[]) => [...rows].sort())).toEqual([['alice 1', 'bob 1', 'carol 1']]);
    await d.dropRules('shared');
  });
});

describe('dedup keys and alert_per_row (E6, E7)', () => {
  it('sends one alert per row and suppresses a key sent within dedup_window_s', async () => {
    const key = await d.tenant('dedup');
    const sink = await d.webhookSink(key, 'dedup');
    const base = d.nextMinute();
    await d.ingest('dedup', [login('alice', base - minute), login('bob', base - minute)]);
    d.clock.set(base + 30_000);
    await d.rule(key, {
      tenant_id: 'dedup',
      name: 'logins per user',
      query_text: '@index=logs eventName: ConsoleLogin | groupbycount(user)',
      alert_per_row: true,
      debounce: false,
      dedup_window_s: 180,
      event_sink_ids: [sink],
      alert_template: { info: [{ label: 'User', value: '{{user}}', use_for_dedup: true }] },
    });
    const sent: string[][] = [];
    const step = async (): Promise<void> => {
      const before = d.webhookBodies('dedup').length;
      await d.run();
      // Alerts of one window are sent in parallel: their arrival order is not defined.
      sent.push(d.webhookBodies('dedup').slice(before).map((b) => b.info[0].value).sort());
      d.clock.advance(minute);
    };
    await step(); // window ending base: alice and bob sent
    await step(); // +1 min: both within 180 s of their sending
    await d.ingest('dedup', [login('carol', base + 50_000)]);
    await step(); // +2 min: carol is new
    await step(); // +3 min: alice and bob 180 s after their sending (not within), carol within
    expect(sent).toEqual([['alice', 'bob'], [], ['carol'], ['alice', 'bob']]);
    const suppressed = (await d.h.call('GET', '/v1/alert?tenant_id=dedup&status=suppressed', key)).body.data.alerts;
    expect(suppressed).toHaveLength(5);
    expect(suppressed.every((a: any) => a.deliveries.length === 0)).toBe(true);
    expect(d.webhookBodies('dedup').every((b) => b.results_table.total_row_count === 1)).toBe(true);
    await d.dropRules('dedup');
  });
});

describe('enabled states (E4)', () => {
  it('writes detections of a Staging rule to _detections and sends nothing; a Paused rule never runs', async () => {
    const key = await d.tenant('states');
    const sink = await d.webhookSink(key, 'states');
    const base = d.nextMinute();
    await d.ingest('states', [login('alice', base - minute)]);
    d.clock.set(base + 30_000);
    const staging = await d.rule(key, { tenant_id: 'states', name: 'staged', enabled_state_override: 'Staging', query_text: '@index=logs eventName: ConsoleLogin', event_sink_ids: [sink], tags: ['a', 'b'] });
    const paused = await d.rule(key, { tenant_id: 'states', name: 'paused', enabled_state_override: 'Paused', query_text: '@index=logs eventName: ConsoleLogin', event_sink_ids: [sink] });
    await d.run();
    d.clock.advance(3 * minute);
    await d.run();
    expect(d.webhookBodies('states')).toEqual([]);
    expect((await d.h.call('GET', '/v1/alert?tenant_id=states', key)).body.data.alerts).toEqual([]);
    const found = await d.h.call('POST', '/v1/blocking_query', key, {
      tenant_id: 'states',
      query: '@index=_detections | table(detection_rule_id, name, staging, tags[1], results_table.total_row_count, results_table.rows[0].user, detected_in_time_range.end)',
      start_time: iso(base - 60 * minute),
      end_time: iso(base + 60 * minute),
      max_rows: 100,
    });
    expect(found.status).toBe(200);
    const rows = found.body.results.rows.map((r: any) => r.columns);
    expect(rows).toHaveLength(4); // the backfilled window and three more, alice in each
    expect(rows[0]).toEqual({
      detection_rule_id: staging,
      name: 'staged',
      staging: 'true',
      'tags[1]': 'b',
      'results_table.total_row_count': 1,
      'results_table.rows[0].user': 'alice',
      'detected_in_time_range.end': expect.stringMatching(/^2026-11-21T/),
    });
    expect(await d.h.runtime.services.store.detectionState.getState(paused)).toBeNull();
    for (const id of [staging, paused]) expect((await d.h.call('GET', `/v1/detection_rule/${id}`, key)).body.detection_rule.last_alerted_at).toBeNull();
    await d.dropRules('states');
  });
});

describe('the settle delay (E1)', () => {
  it('evaluates a window only after the settle delay, so an event ingested late within it is found', async () => {
    const key = await d.tenant('late');
    const sink = await d.webhookSink(key, 'late');
    const base = d.nextMinute();
    d.clock.set(base + 30_000);
    await d.rule(key, { tenant_id: 'late', name: 'late', query_text: '@index=logs eventName: ConsoleLogin | table(user)', event_sink_ids: [sink] });
    await d.run();
    await d.ingest('late', [login('alice', base + 50_000)]);
    d.clock.set(base + minute + 29_999);
    await d.run();
    expect(d.webhookBodies('late')).toEqual([]);
    // Arrives 15 s after its window ended, within the settle delay.
    d.clock.set(base + minute + 15_000 + 14_999);
    await d.ingest('late', [login('bob', base + 59_000)]);
    d.clock.set(base + minute + 30_000);
    await d.run();
    expect(d.webhookBodies('late').map((b) => [b.detected_in_time_range.end, b.results_table.rows.map((r: any) => r.user)])).toEqual([[isoNs(base + minute), ['alice', 'bob']]]);
    await d.dropRules('late');
  });
});

describe('a correlation rule over _detections', () => {
  it('alerts when a signal rule fired twice for the same user', async () => {
    const key = await d.tenant('corr');
    const sink = await d.webhookSink(key, 'corr');
    const base = d.nextMinute();
    await d.ingest('corr', [login('alice', base - minute)]);
    d.clock.set(base + 30_000);
    await d.rule(key, {
      tenant_id: 'corr',
      name: 'login signal',
      severity: 'Low',
      enabled_state_override: 'Staging',
      query_text: '@index=logs eventName: ConsoleLogin | groupbycount(user)',
      alert_per_row: true,
      debounce: false,
    });
    const correlation = await d.rule(key, {
      tenant_id: 'corr',
      name: 'repeated login signal',
      severity: 'High',
      time_range_s: 600,
      query_text: '@index=_detections name: "login signal" | groupbycount(results_table.rows[0].user) | rename(results_table.rows[0].user as user) | where @q.count >= 2',
      event_sink_ids: [sink],
      alert_template: { info: [{ label: 'User', value: '{{user}}' }] },
    });
    for (let i = 0; i < 3; i++) {
      await d.run();
      d.clock.advance(minute);
    }
    const bodies = d.webhookBodies('corr');
    expect(bodies.map((b) => [b.detection_rule_id, b.detected_in_time_range.end, b.results_table.rows, b.info])).toEqual([
      [correlation, isoNs(base + 2 * minute), [{ user: 'alice', '@q.count': 2 }], [{ label: 'User', value: 'alice' }]],
    ]);
    await d.dropRules('corr');
  });
});
