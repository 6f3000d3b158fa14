/**
 * Alert delivery end to end (issue 6; detections.md E13): stand-in receivers that go down, rate
 * limit, fail and refuse; catch-up of missed windows by a restarted engine; operator re-sends;
 * the give-up horizon. Real engine and store, hand-moved clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatAnswers, pagerAnswers, startWebhookReceiver, type StandInReceiver } from '../../src/sinks/testing/stand-in-receiver.js';
import { iso, isoNs, minute, openDetectionHarness, type DetectionHarness } from '../support/detection-harness.js';

let d: DetectionHarness;
let flaky: StandInReceiver;

beforeAll(async () => {
  d = await openDetectionHarness(Date.parse('2026-11-22T08:00:00Z'));
  flaky = await startWebhookReceiver();
}, 120_000);
afterAll(async () => {
  await d?.close();
  await flaky?.stop();
});

const login = (user: string, atMs: number) => ({ '@timestamp': iso(atMs), eventName: 'ConsoleLogin', user });
const attemptsOf = async (key: string, alertId: string) =>
  (await d.h.call('GET', `/v1/alert/${alertId}`, key)).body.alert.deliveries.map((x: any) => [x.event_sink_type, x.status, x.attempts.map((a: any) => `${a.outcome}:${a.http_status ?? '-'}`)]);

describe('a receiver down for several minutes', () => {
  it('gets every alert once it is back, each exactly once', async () => {
    const key = await d.tenant('outage');
    const sink = await d.webhookSink(key, 'outage', {}, `${flaky.url}/hook`);
    const base = d.nextMinute();
    d.clock.set(base + 30_000);
    await d.rule(key, { tenant_id: 'outage', name: 'logins', query_text: '@index=logs eventName: ConsoleLogin | table(user)', event_sink_ids: [sink] });
    await d.run();
    await flaky.down();
    for (let i = 1; i <= 5; i++) {
      await d.ingest('outage', [login(`user${i}`, base + (i - 1) * minute + 10_000)]);
      // Two passes a minute: windows are evaluated, deliveries fail and back off.
      d.clock.set(base + i * minute + 30_000);
      await d.run();
      d.clock.advance(20_000);
      await d.run();
    }
    const pending = (await d.h.call('GET', '/v1/alert?tenant_id=outage&status=pending', key)).body.data.alerts;
    expect(pending).toHaveLength(5);
    expect(pending.every((a: any) => a.deliveries[0].attempt_count >= 1 && a.deliveries[0].last_error.includes('ECONNREFUSED'))).toBe(true);
    await flaky.up();
    for (let i = 0; i < 12; i++) {
      d.clock.advance(30_000);
      await d.run();
    }
    const received = d.webhookBodies('outage', flaky);
    expect(received.map((b) => b.results_table.rows[0].user).sort()).toEqual(['user1', 'user2', 'user3', 'user4', 'user5']);
    expect(new Set(received.map((b) => b.id)).size).toBe(5);
    const all = (await d.h.call('GET', '/v1/alert?tenant_id=outage', key)).body.data.alerts;
    expect(all.map((a: any) => a.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered', 'delivered']);
    await d.dropRules('outage');
  });
});

describe('retries, permanent failures and re-sends', () => {
  it('waits out a chat 429 Retry-After and a pager 500, fails on a pager 400, and re-sends on request', async () => {
    const key = await d.tenant('retry');
    const chat = await d.chatSink(key, 'retry', 'C0RETRY');
    const pager = await d.pagerSink(key, 'retry', 'Rretry0123456789abcdefghijklmnop');
    const base = d.nextMinute();
    await d.ingest('retry', [login('alice', base - minute)]);
    d.clock.set(base + 30_000);
    d.chatApi.answerNext(chatAnswers.rateLimited(20));
    d.pagerApi.answerNext(pagerAnswers.serverError());
    await d.rule(key, { tenant_id: 'retry', name: 'logins', severity: 'Critical', query_text: '@index=logs eventName: ConsoleLogin | table(user)', event_sink_ids: [chat, pager] });
    await d.run();
    const [first] = (await d.h.call('GET', '/v1/alert?tenant_id=retry', key)).body.data.alerts;
    expect(await attemptsOf(key, first.id)).toEqual([
      ['Chat', 'pending', ['retryable:429']],
      ['Pager', 'pending', ['retryable:500']],
    ]);
    d.clock.advance(2000);
    await d.run();
    expect(await attemptsOf(key, first.id)).toEqual([
      ['Chat', 'pending', ['retryable:429']],
      ['Pager', 'delivered', ['retryable:500', 'delivered:202']],
    ]);
    d.clock.advance(18_000);
    await d.run();
    expect(await attemptsOf(key, first.id)).toEqual([
      ['Chat', 'delivered', ['retryable:429', 'delivered:200']],
      ['Pager', 'delivered', ['retryable:500', 'delivered:202']],
    ]);
    expect(JSON.parse(d.pagerApi.requests.at(-1)!.body).payload.severity).toBe('critical');

    await d.ingest('retry', [login('bob', base + 10_000)]);
    d.clock.set(base + minute + 30_000);
    d.pagerApi.answerNext(pagerAnswers.invalid());
    await d.run();
    const [second] = (await d.h.call('GET', '/v1/alert?tenant_id=retry', key)).body.data.alerts;
    expect(second.status).toBe('failed');
    expect(await attemptsOf(key, second.id)).toEqual([
      ['Chat', 'delivered', ['delivered:200']],
      ['Pager', 'failed', ['permanent:400']],
    ]);
    d.clock.advance(1000); // attempts are listed by time: keep the re-send's after the first ones
    const resent = await d.h.call('POST', `/v1/alert/${second.id}/resend`, key);
    expect(resent.status).toBe(200);
    expect(resent.body.alert.status).toBe('pending');
    await d.run();
    expect((await d.h.call('GET', `/v1/alert/${second.id}`, key)).body.alert.status).toBe('delivered');
    expect(await attemptsOf(key, second.id)).toEqual([
      ['Chat', 'delivered', ['delivered:200', 'delivered:200']],
      ['Pager', 'delivered', ['permanent:400', 'delivered:202']],
    ]);
    await d.dropRules('retry');
  });

  it('answers alerts by tenant only, and refuses to re-send an alert with nothing to send', async () => {
    const key = await d.tenant('alone');
    const other = await d.h.keyFor('someone-else');
    const base = d.nextMinute();
    await d.ingest('alone', [login('alice', base - minute)]);
    d.clock.set(base + 30_000);
    await d.rule(key, { tenant_id: 'alone', name: 'no sinks', query_text: '@index=logs eventName: ConsoleLogin' });
    await d.run();
    const [alert] = (await d.h.call('GET', '/v1/alert?tenant_id=alone', key)).body.data.alerts;
    expect(alert).toMatchObject({ status: 'no_sinks', deliveries: [] });
    expect((await d.h.call('POST', `/v1/alert/${alert.id}/resend`, key)).status).toBe(409);
    expect((await d.h.call('GET', `/v1/alert/${alert.id}`, other)).status).toBe(404);
    expect((await d.h.call('GET', '/v1/alert?tenant_id=alone', other)).status).toBe(403);
    expect((await d.h.call('GET', '/v1/alert?tenant_id=alone&pagination[page_size]=0', key)).status).toBe(400);
    await d.dropRules('alone');
  });
});

describe('catch-up after a restart (E2)', () => {
  it('evaluates every window missed while the server was down, in order, with nothing skipped', async () => {
    const key = await d.tenant('restart');
    const sink = await d.webhookSink(key, 'restart');
    const base = d.nextMinute();
    d.clock.set(base + 30_000);
    const ruleId = await d.rule(key, { tenant_id: 'restart', name: 'logins', query_text: '@index=logs eventName: ConsoleLogin | table(user)', event_sink_ids: [sink] });
    await d.run();
    // The server goes down; events keep arriving (through another process, or late shippers).
    await d.engine().stop();
    await d.ingest('restart', [login('u2', base + 2 * minute - 5000), login('u5', base + 5 * minute - 5000), login('u8', base + 8 * minute - 5000)]);
    d.clock.set(base + 10 * minute + 30_000);
    await d.restartEngine();
    await d.run();
    const state = await d.h.runtime.services.store.detectionState.getState(ruleId);
    expect(state).toMatchObject({ cursorMs: base + 10 * minute, skippedWindows: 0, gapStartMs: null });
    expect(d.webhookBodies('restart').map((b) => [b.detected_in_time_range.end, b.results_table.rows.map((r: any) => r.user)])).toEqual([
      [isoNs(base + 2 * minute), ['u2']],
      [isoNs(base + 5 * minute), ['u5']],
      [isoNs(base + 8 * minute), ['u8']],
    ]);
    await d.dropRules('restart');
  });
});

describe('the give-up horizon (E13)', () => {
  it('stops retrying after 24 hours and leaves the alert failed with its last error', async () => {
    const key = await d.tenant('giveup');
    const sink = await d.webhookSink(key, 'giveup', {}, `${flaky.url}/hook`);
    const base = d.nextMinute();
    await d.ingest('giveup', [login('alice', base - minute)]);
    d.clock.set(base + 30_000);
    await d.rule(key, { tenant_id: 'giveup', name: 'logins', query_text: '@index=logs eventName: ConsoleLogin', event_sink_ids: [sink] });
    flaky.answerAlways({ status: 503, body: 'maintenance' });
    await d.run();
    await d.dropRules('giveup'); // the rule stops; its alert keeps being delivered
    const worker = d.engine().worker;
    for (let elapsed = 0; elapsed <= 25 * 60 * minute; elapsed += 5 * minute) {
      d.clock.advance(5 * minute);
      await worker.runDue();
    }
    const [alert] = (await d.h.call('GET', '/v1/alert?tenant_id=giveup', key)).body.data.alerts;
    expect(alert.status).toBe('failed');
    const [delivery] = (await d.h.call('GET', `/v1/alert/${alert.id}`, key)).body.alert.deliveries;
    expect(delivery.status).toBe('failed');
    expect(delivery.last_http_status).toBe(503);
    expect(delivery.last_error).toMatch(/^gave up after \d+ attempts: HTTP 503: maintenance$/);
    const last = Date.parse(delivery.attempts.at(-1).at);
    expect(last - (base + 30_000)).toBeLessThanOrEqual(24 * 60 * minute);
    // Once the back-off reaches its 5-minute cap (±20 %), an attempt every 5 or 10 minutes of this loop.
    expect(delivery.attempts.length).toBeGreaterThan(24 * 6);
    expect(delivery.attempts.every((a: any) => a.outcome === 'retryable' && a.http_status === 503)).toBe(true);
    flaky.answerAlways({ status: 200 });
  });
});
