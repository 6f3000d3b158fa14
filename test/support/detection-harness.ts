/**
 * The detection engine end to end in this process: the API harness (real chDB engine and SQLite
 * store) on a hand-moved clock, stand-in receivers on 127.0.0.1 for the webhook, the chat Web API
 * and the pager Events API, and helpers to create sinks and rules through the API and run the
 * scheduler and the delivery worker at the clock's time.
 */
import { cliActor, DetectionEngine } from '../../src/services/index.js';
import { ManualClock } from '../../src/core/index.js';
import { detectionEngineSettings } from '../../src/runtime.js';
import { startChatApiStandIn, startPagerApiStandIn, startWebhookReceiver, type StandInReceiver } from '../../src/sinks/testing/stand-in-receiver.js';
import { openApiHarness, type ApiHarness } from './api-harness.js';

export const minute = 60_000;

export interface DetectionHarness {
  readonly h: ApiHarness;
  readonly clock: ManualClock;
  readonly webhook: StandInReceiver;
  readonly chatApi: StandInReceiver;
  readonly pagerApi: StandInReceiver;
  /** The engine in use; `restartEngine` replaces it as a restarted server would. */
  engine(): DetectionEngine;
  /** Stops the engine and builds a new one over the same store and events engine. */
  restartEngine(): Promise<DetectionEngine>;
  /** Evaluates every due window, then sends every due delivery, at the clock's time. */
  run(): Promise<void>;
  /** Moves the clock to the next minute boundary (or keeps it if on one) and returns it. */
  nextMinute(): number;
  /** Sets up a tenant: its key, and an index `logs` holding these events. */
  tenant(name: string): Promise<string>;
  /** Ingests NDJSON events into the tenant's `logs` index. */
  ingest(tenant: string, events: readonly Record<string, unknown>[]): Promise<void>;
  webhookSink(key: string, tenant: string, args?: Record<string, unknown>, url?: string): Promise<string>;
  chatSink(key: string, tenant: string, channelId: string): Promise<string>;
  pagerSink(key: string, tenant: string, integrationKey: string): Promise<string>;
  rule(key: string, body: Record<string, unknown>): Promise<string>;
  /** Deletes every rule of the tenant, so it stops running. */
  dropRules(tenant: string): Promise<void>;
  /** The JSON bodies a stand-in received for a tenant's webhook alerts, oldest first. */
  webhookBodies(tenant: string, receiver?: StandInReceiver): any[];
  close(): Promise<void>;
}

export async function openDetectionHarness(startMs: number): Promise<DetectionHarness> {
  const clock = new ManualClock(startMs);
  const [webhook, chatApi, pagerApi] = await Promise.all([startWebhookReceiver(), startChatApiStandIn(), startPagerApiStandIn()]);
  const h = await openApiHarness({
    clock,
    env: { VIGIL_ALLOW_PRIVATE_DESTINATIONS: 'true', VIGIL_PAGER_API_URL: pagerApi.url, VIGIL_DELIVERY_TIMEOUT_S: '5' },
  });
  let current = h.runtime.services.detections!;
  const services = h.runtime.services;
  return {
    h,
    clock,
    webhook,
    chatApi,
    pagerApi,
    engine: () => current,
    async restartEngine() {
      await current.stop();
      current = new DetectionEngine(
        {
          store: services.store,
          engine: h.engine,
          search: services.search!,
          clock,
          logger: h.runtime.logger,
          tenants: services.tenants,
          indexes: services.indexes,
          sinks: services.sinks,
          chatIntegrations: services.chatIntegrations,
          allowPrivateDestinations: true,
        },
        detectionEngineSettings(h.runtime.config.detections, true),
      );
      return current;
    },
    async run() {
      await current.scheduler.runDue();
      await current.worker.runDue();
    },
    nextMinute() {
      clock.set(Math.ceil(clock.nowMs() / minute) * minute);
      return clock.nowMs();
    },
    async tenant(name) {
      const key = await h.keyFor(name);
      await services.indexes.create(name, { name: 'logs' }, cliActor);
      return key;
    },
    async ingest(tenant, events) {
      await h.ingest(tenant, 'logs', events.map((e) => JSON.stringify(e)));
    },
    async webhookSink(key, tenant, args = {}, url = `${webhook.url}/hook`) {
      const response = await h.call('POST', '/v1/event_sink', key, { tenant_id: tenant, name: 'webhook', description: '', event_sink_args: { Webhook: { url, ...args } } });
      if (response.status !== 200) throw new Error(JSON.stringify(response.body));
      return response.body.event_sink.id;
    },
    async chatSink(key, tenant, channelId) {
      const integration = await services.chatIntegrations.add(tenant, { token: 'xoxb-test-0000-secret', apiUrl: `${chatApi.url}/api`, name: 'workspace' }, cliActor);
      const response = await h.call('POST', '/v1/event_sink', key, {
        tenant_id: tenant,
        name: 'chat',
        description: '',
        event_sink_args: { Chat: { channel_id: channelId, chat_integration_id: integration.id } },
      });
      if (response.status !== 200) throw new Error(JSON.stringify(response.body));
      return response.body.event_sink.id;
    },
    async pagerSink(key, tenant, integrationKey) {
      const response = await h.call('POST', '/v1/event_sink', key, { tenant_id: tenant, name: 'pager', description: '', event_sink_args: { Pager: { integration_key: integrationKey } } });
      if (response.status !== 200) throw new Error(JSON.stringify(response.body));
      return response.body.event_sink.id;
    },
    async rule(key, body) {
      const response = await h.call('POST', '/v1/detection_rule', key, {
        description: 'a test rule',
        time_range_s: 300,
        run_frequency_s: 60,
        enabled_state_override: 'Active',
        severity: 'Medium',
        event_sink_ids: [],
        ...body,
      });
      if (response.status !== 200) throw new Error(JSON.stringify(response.body));
      return response.body.detection_rule.id;
    },
    async dropRules(tenant) {
      const { items } = await services.store.rules.list(tenant, { pageSize: 1000 });
      for (const rule of items) await services.store.rules.delete(tenant, rule.id);
    },
    webhookBodies(tenant, receiver = webhook) {
      return receiver.requests.map((r) => JSON.parse(r.body)).filter((b) => b.tenant_id === tenant);
    },
    async close() {
      await h.close();
      await Promise.all([webhook.stop(), chatApi.stop(), pagerApi.stop()]);
    },
  };
}

/** RFC 3339 with milliseconds, for event timestamps. */
export const iso = (ms: number): string => new Date(ms).toISOString();
/** RFC 3339 with nine fractional digits, as windows are written. */
export const isoNs = (ms: number): string => new Date(ms).toISOString().replace('Z', '000000Z');
