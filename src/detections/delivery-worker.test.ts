import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, newId, silentLogger } from '../core/index.js';
import { sampleAlert } from '../domain/testing/index.js';
import { chatAnswers, pagerAnswers, startChatApiStandIn, startPagerApiStandIn, startWebhookReceiver, type StandInReceiver } from '../sinks/testing/stand-in-receiver.js';
import type { EventSinkRecord, Store } from '../store/index.js';
import { createSqliteStore } from '../store/sqlite/index.js';
import { aCommit, aDelivery, anAlert } from '../store/testing/detection-engine-fixtures.js';
import { DeliveryWorker, defaultDeliverySettings, type DeliverySettings } from './delivery-worker.js';
import { createSinkResolver } from './sink-resolver.js';
import { ruleRecord } from './testing/rule-fixtures.js';

const t = Date.parse('2026-11-21T12:00:30Z');
const pagerKey = 'R0123456789abcdefghijklmnopqrstu';
let webhook: StandInReceiver;
let other: StandInReceiver;
let chatApi: StandInReceiver;
let pagerApi: StandInReceiver;
let store: Store;
let clock: ManualClock;
let ruleId: string;
let cursor: number | null;

beforeAll(async () => {
  [webhook, other, chatApi, pagerApi] = await Promise.all([startWebhookReceiver(), startWebhookReceiver(), startChatApiStandIn(), startPagerApiStandIn()]);
});
afterAll(async () => Promise.all([webhook, other, chatApi, pagerApi].map((r) => r.stop())));

beforeEach(async () => {
  store = await createSqliteStore(':memory:');
  await store.migrate();
  await store.tenants.ensure('acme', t);
  clock = new ManualClock(t);
  const rule = ruleRecord({ id: newId() });
  await store.rules.insert(rule);
  ruleId = rule.id;
  cursor = null;
  for (const r of [webhook, other, chatApi, pagerApi]) {
    r.requests.length = 0;
    r.answerAlways(r === chatApi ? { status: 200, body: { ok: true } } : r === pagerApi ? { status: 202, body: { status: 'success' } } : { status: 200 });
  }
});
afterEach(async () => store.close());

async function addSink(type: EventSinkRecord['type'], config: Record<string, unknown>, chatIntegrationId: string | null = null): Promise<string> {
  const id = newId();
  await store.sinks.insert({ id, tenantId: 'acme', name: type, description: '', type, config, sealedSecrets: null, chatIntegrationId, createdAt: t, updatedAt: t });
  return id;
}

/** Queues an alert to the sinks the way the scheduler does: in a window commit. */
async function queueAlert(sinks: { id: string; type: EventSinkRecord['type'] }[]): Promise<string> {
  const message = sampleAlert({ id: newId(), detectionRuleId: ruleId });
  const end = (cursor ?? t - 30_000) + 60_000;
  const at = clock.nowMs();
  const ids = sinks.map(() => newId()).sort();
  const alert = anAlert('acme', ruleId, { id: message.id, ruleName: message.name, windowStartMs: end - 300_000, windowEndMs: end, payload: message, createdAt: at, updatedAt: at });
  const ok = await store.detectionState.commitWindow(
    aCommit('acme', ruleId, end, cursor, {
      ranAtMs: at,
      forgetIdentitiesUpToMs: 0,
      lastAlertedAtMs: at,
      alerts: [{ alert, deliveries: sinks.map((s, i) => aDelivery(alert, s.id, { id: ids[i]!, sinkType: s.type })) }],
    }),
  );
  expect(ok).toBe(true);
  cursor = end;
  return message.id;
}

function worker(settings: Partial<DeliverySettings> = {}, timeoutMs = 2000): DeliveryWorker {
  const resolveSink = createSinkResolver({
    store,
    clock,
    http: { allowPrivateDestinations: true, timeoutMs, userAgent: 'vigil/test' },
    secretsOf: (sink) => (sink.type === 'Pager' ? { integration_key: pagerKey } : null),
    tokenOf: () => 'xoxb-test-token',
    pagerApiUrl: pagerApi.url,
  });
  return new DeliveryWorker({ store, clock, resolveSink, logger: silentLogger, random: () => 0.5 }, { ...defaultDeliverySettings, ...settings });
}

const attemptsOf = async (alertId: string) => (await store.alerts.attempts(alertId)).map((a) => [a.at - t, a.outcome, a.httpStatus]);

describe('DeliveryWorker (E13)', () => {
  it('delivers to every sink type and records each attempt', async () => {
    const integration = newId();
    await store.chatIntegrations.insert({ id: integration, tenantId: 'acme', name: 'ws', apiUrl: `${chatApi.url}/api`, sealedToken: 'x', tokenHint: 'x', createdAt: t });
    const sinks = [
      { id: await addSink('Webhook', { url: `${webhook.url}/hook` }), type: 'Webhook' as const },
      { id: await addSink('Chat', { channel_id: 'C1', chat_integration_id: integration }, integration), type: 'Chat' as const },
      { id: await addSink('Pager', { integration_key: '********' }), type: 'Pager' as const },
    ];
    const alertId = await queueAlert(sinks);
    await worker().runDue();
    expect([webhook, chatApi, pagerApi].map((r) => r.requests.length)).toEqual([1, 1, 1]);
    expect(JSON.parse(pagerApi.requests[0]!.body).routing_key).toBe(pagerKey);
    expect(chatApi.requests[0]!.headers.authorization).toBe('Bearer xoxb-test-token');
    expect(await store.alerts.get('acme', alertId)).toMatchObject({ status: 'delivered' });
    expect((await store.alerts.deliveries(alertId)).map((d) => [d.sinkType, d.status, d.attempts, d.deliveredAt])).toEqual([
      ['Webhook', 'delivered', 1, t],
      ['Chat', 'delivered', 1, t],
      ['Pager', 'delivered', 1, t],
    ]);
    expect(await attemptsOf(alertId)).toEqual([
      [0, 'delivered', 200],
      [0, 'delivered', 200],
      [0, 'delivered', 202],
    ]);
  });

  it('retries server errors with exponential back-off until delivered', async () => {
    const sink = await addSink('Webhook', { url: `${webhook.url}/hook` });
    const alertId = await queueAlert([{ id: sink, type: 'Webhook' }]);
    webhook.answerNext({ status: 503 }, { status: 500 }, { status: 502 });
    const w = worker();
    for (const step of [0, 999, 1, 2000, 4000]) {
      clock.advance(step);
      await w.runDue();
    }
    expect(await attemptsOf(alertId)).toEqual([
      [0, 'retryable', 503],
      [1000, 'retryable', 500],
      [3000, 'retryable', 502],
      [7000, 'delivered', 200],
    ]);
    expect(webhook.requests).toHaveLength(4);
    expect((await store.alerts.get('acme', alertId))?.status).toBe('delivered');
  });

  it('honours Retry-After and holds back the whole rate-limited sink, but not the others', async () => {
    const integration = newId();
    await store.chatIntegrations.insert({ id: integration, tenantId: 'acme', name: 'ws', apiUrl: `${chatApi.url}/api`, sealedToken: 'x', tokenHint: 'x', createdAt: t });
    const chat = await addSink('Chat', { channel_id: 'C1', chat_integration_id: integration }, integration);
    const hook = await addSink('Webhook', { url: `${webhook.url}/hook` });
    chatApi.answerNext(chatAnswers.rateLimited(30));
    const w = worker({ perSinkConcurrency: 1 });
    const first = await queueAlert([{ id: chat, type: 'Chat' }]);
    await w.runDue();
    const second = await queueAlert([
      { id: chat, type: 'Chat' },
      { id: hook, type: 'Webhook' },
    ]);
    clock.advance(10_000);
    await w.runDue();
    expect(chatApi.requests).toHaveLength(1);
    expect(webhook.requests).toHaveLength(1);
    clock.advance(20_000);
    await w.runDue();
    expect(chatApi.requests).toHaveLength(3);
    expect(await attemptsOf(first)).toEqual([
      [0, 'retryable', 429],
      [30_000, 'delivered', 200],
    ]);
    expect((await store.alerts.get('acme', second))?.status).toBe('delivered');
  });

  it('fails a delivery at once on a permanent error, and the alert with it', async () => {
    const pager = await addSink('Pager', { integration_key: '********' });
    const hook = await addSink('Webhook', { url: `${webhook.url}/hook` });
    pagerApi.answerNext(pagerAnswers.invalid());
    const alertId = await queueAlert([
      { id: pager, type: 'Pager' },
      { id: hook, type: 'Webhook' },
    ]);
    await worker().runDue();
    expect(await store.alerts.get('acme', alertId)).toMatchObject({ status: 'failed' });
    const deliveries = await store.alerts.deliveries(alertId);
    expect(deliveries.map((d) => [d.sinkType, d.status, d.lastHttpStatus])).toEqual([
      ['Pager', 'failed', 400],
      ['Webhook', 'delivered', 200],
    ]);
    expect(deliveries[0]!.lastError).toContain('invalid event');
  });

  it('gives up at the horizon, leaving the alert failed with its last error', async () => {
    const sink = await addSink('Webhook', { url: `${webhook.url}/hook` });
    webhook.answerAlways({ status: 500, body: 'still broken' });
    const alertId = await queueAlert([{ id: sink, type: 'Webhook' }]);
    const w = worker({ retry: { ...defaultDeliverySettings.retry, giveUpAfterMs: 60_000 } });
    for (let i = 0; i < 20; i++) {
      await w.runDue();
      clock.advance(5000);
    }
    const [delivery] = await store.alerts.deliveries(alertId);
    expect(delivery).toMatchObject({ status: 'failed', lastHttpStatus: 500 });
    expect(delivery!.lastError).toMatch(/^gave up after 6 attempts: HTTP 500: still broken$/);
    // Attempts happen on the 5 s steps once due (1 s, 2 s, 4 s, … later); the next would fall past 60 s.
    expect((await attemptsOf(alertId)).map(([at]) => at)).toEqual([0, 5000, 10_000, 15_000, 25_000, 45_000]);
    expect((await store.alerts.get('acme', alertId))?.status).toBe('failed');
  });

  it('keeps delivering to healthy sinks while one sink hangs', async () => {
    const slow = await addSink('Webhook', { url: `${other.url}/hook` });
    const fast = await addSink('Webhook', { url: `${webhook.url}/hook` });
    other.answerAlways({ status: 200, delayMs: 1000 });
    const w = worker({ concurrency: 3, perSinkConcurrency: 1 }, 300);
    const ids = [await queueAlert([{ id: slow, type: 'Webhook' }]), await queueAlert([{ id: slow, type: 'Webhook' }])];
    const healthy = [];
    for (let i = 0; i < 4; i++) healthy.push(await queueAlert([{ id: fast, type: 'Webhook' }]));
    await w.runDue();
    for (const id of healthy) expect((await store.alerts.get('acme', id))?.status).toBe('delivered');
    for (const id of ids) expect(await attemptsOf(id)).toEqual([[0, 'retryable', null]]);
  });

  it('fails deliveries to a deleted sink', async () => {
    const sink = await addSink('Webhook', { url: `${webhook.url}/hook` });
    const alertId = await queueAlert([{ id: sink, type: 'Webhook' }]);
    await store.sinks.delete('acme', sink, t);
    await worker().runDue();
    expect((await store.alerts.deliveries(alertId))[0]).toMatchObject({ status: 'failed', lastError: `event sink ${sink} no longer exists` });
  });

  it('sends again a delivery whose worker died mid-send, once its lease expires', async () => {
    const sink = await addSink('Webhook', { url: `${webhook.url}/hook` });
    const alertId = await queueAlert([{ id: sink, type: 'Webhook' }]);
    // A worker claimed it and was killed before recording anything.
    expect(await store.alerts.claimDue(t, 10, t + defaultDeliverySettings.leaseMs, new Set())).toHaveLength(1);
    const w = worker();
    await w.runDue();
    expect(webhook.requests).toHaveLength(0);
    clock.advance(defaultDeliverySettings.leaseMs);
    await w.runDue();
    expect(webhook.requests).toHaveLength(1);
    expect((await store.alerts.get('acme', alertId))?.status).toBe('delivered');
  });

  it('re-sends an alert the operator re-queued', async () => {
    const sink = await addSink('Webhook', { url: `${webhook.url}/hook` });
    const alertId = await queueAlert([{ id: sink, type: 'Webhook' }]);
    const w = worker();
    await w.runDue();
    clock.advance(60_000);
    expect(await store.alerts.resend('acme', alertId, clock.nowMs())).toBe(1);
    await w.runDue();
    expect(webhook.requests.map((r) => r.headers['x-vigil-alert-id'])).toEqual([alertId, alertId]);
    expect(await attemptsOf(alertId)).toEqual([
      [0, 'delivered', 200],
      [60_000, 'delivered', 200],
    ]);
  });

  it('re-queues sends cut short by stop()', async () => {
    const sink = await addSink('Webhook', { url: `${webhook.url}/hook` });
    webhook.answerAlways({ status: 200, delayMs: 2000 });
    const alertId = await queueAlert([{ id: sink, type: 'Webhook' }]);
    const w = worker({ stopGraceMs: 50 }, 5000);
    w.start();
    await webhook.waitForRequests(1);
    await w.stop();
    expect((await store.alerts.deliveries(alertId))[0]).toMatchObject({ status: 'pending', nextAttemptAt: t, lastError: 'interrupted: the worker was stopping' });
    expect(await store.alerts.nextDueAt()).toBe(t);
  });
});
