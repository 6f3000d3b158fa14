/**
 * kill -9 at a random (seeded) moment of alert delivery, to a real HTTP receiver on 127.0.0.1
 * that answers each alert after a random delay, then a restart on the same data dir. Delivery is at
 * least once (docs/detections.md): every alert must reach the receiver, none may be stored twice,
 * and an alert the server had recorded as delivered before the kill must not be sent again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandInReceiver } from '../../src/sinks/testing/stand-in-receiver.js';
import { minimalRuleBody } from '../support/rule-bodies.js';
import { seededRandom } from '../support/seeded-random.js';
import { call, startVigilServer, type ServerProcess } from '../support/vigil-process.js';

const random = seededRandom(20);
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-delivery-kill-'));
// loopback sinks need the operator's allow setting; windows are evaluated at once (no settle delay)
const env = { VIGIL_ALLOW_PRIVATE_DESTINATIONS: 'true', VIGIL_DETECTION_SETTLE_DELAY_S: '0', VIGIL_DELIVERY_TIMEOUT_S: '30' };
const json = { 'content-type': 'application/json' };
const ruleCount = 8;
let receiver: StandInReceiver;
let server: ServerProcess | undefined;

beforeAll(async () => {
  // each alert answered after 300-900 ms: with two sends at once per sink, deliveries take seconds
  receiver = await StandInReceiver.start('/hook', () => ({ status: 200, body: { received: true }, delayMs: random.int(300, 900) }));
});
afterAll(async () => {
  await server?.kill();
  await receiver.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Alert {
  readonly id: string;
  readonly status: string;
  readonly detection_rule_id: string;
}

async function alerts(running: ServerProcess): Promise<Alert[]> {
  const response = await call(`${running.url}/v1/alert?tenant_id=default&pagination[page_size]=100`, { key: running.bootstrapKey });
  expect(response.status).toBe(200);
  return response.body.data.alerts;
}

describe(`alert delivery killed at a random moment (seed ${random.seed}; VIGIL_FAULT_SEED picks another)`, () => {
  it('delivers every alert after the restart, stores each once, and sends none again that was recorded as delivered', async () => {
    server = await startVigilServer(dataDir, env);
    const { url, bootstrapKey: key } = server;
    // one event inside the most recent complete window, which a new Active rule evaluates at once
    const lastBoundary = Math.floor(Date.now() / 60_000) * 60_000;
    const event = JSON.stringify({ '@timestamp': new Date(lastBoundary - 20_000).toISOString(), eventName: 'ConsoleLogin', user: 'alice' });
    expect((await call(`${url}/v1/ingest?tenant_id=default&index=logs&create_index=true`, { method: 'POST', key, body: event })).body).toMatchObject({ ingested: 1 });
    const sink = await call(`${url}/v1/event_sink`, {
      method: 'POST',
      key,
      headers: json,
      body: JSON.stringify({ tenant_id: 'default', name: 'hook', description: '', event_sink_args: { Webhook: { url: `${receiver.url}/hook` } } }),
    });
    expect(sink.status).toBe(200);
    for (let i = 0; i < ruleCount; i++) {
      const rule = await call(`${url}/v1/detection_rule`, {
        method: 'POST',
        key,
        headers: json,
        body: JSON.stringify(minimalRuleBody({ tenant_id: 'default', name: `console login ${i}`, query_text: '@index=logs eventName: ConsoleLogin', event_sink_ids: [sink.body.event_sink.id] })),
      });
      expect(rule.status).toBe(200);
    }

    await receiver.waitForRequests(1, 20_000);
    await new Promise((resolve) => setTimeout(resolve, random.int(0, 1500)));
    // read before the kill: whatever is delivered here was committed as such before it
    const deliveredBeforeKill = new Set((await alerts(server)).filter((alert) => alert.status === 'delivered').map((alert) => alert.id));
    const killedAt = Date.now();
    await server.kill();
    server = undefined;
    const receivedBeforeKill = receiver.requests.length;

    server = await startVigilServer(dataDir, env);
    let stored: Alert[] = [];
    for (let i = 0; i < 300; i++) {
      stored = await alerts(server);
      if (stored.length === ruleCount && stored.every((alert) => alert.status === 'delivered')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const idsOf = (requests: typeof receiver.requests) => requests.map((request) => String(request.headers['x-vigil-alert-id']));
    const received = idsOf(receiver.requests);
    const sentAgain = idsOf(receiver.requests.filter((request) => request.at > killedAt));

    // the kill fell inside the delivery: some alerts were sent before it, some after the restart
    expect(receivedBeforeKill).toBeGreaterThan(0);
    expect(sentAgain.length).toBeGreaterThan(0);
    expect(stored.map((alert) => alert.status)).toEqual(Array(ruleCount).fill('delivered'));
    expect(new Set(stored.map((alert) => alert.detection_rule_id)).size).toBe(ruleCount); // one alert per rule
    expect(new Set(received)).toEqual(new Set(stored.map((alert) => alert.id)));
    expect(sentAgain.filter((id) => deliveredBeforeKill.has(id))).toEqual([]);
    for (const id of new Set(received)) expect(received.filter((other) => other === id).length, id).toBeLessThanOrEqual(2);
  }, 90_000);
});
