/**
 * `vigil serve` killed (kill -9) while an alert is on its way, then started again on the same
 * data dir: the alert, already in the outbox with the window's cursor, is sent again and
 * delivered (at least once), and /metrics shows the engine's work. Real processes, real time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type StandInReceiver } from '../../src/sinks/testing/stand-in-receiver.js';
import { call, startVigilServer, type ServerProcess } from '../support/vigil-process.js';

describe('vigil serve killed mid-delivery and restarted', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-kill-'));
  const env = { VIGIL_ALLOW_PRIVATE_DESTINATIONS: 'true', VIGIL_DETECTION_SETTLE_DELAY_S: '0', VIGIL_DELIVERY_TIMEOUT_S: '30' };
  let receiver: StandInReceiver;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await server?.stop();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses nothing: the alert is sent again by the restarted server', async () => {
    server = await startVigilServer(dataDir, env);
    const key = server.bootstrapKey;
    // An event inside the most recent complete window, which a new Active rule evaluates at once (E3).
    const lastBoundary = Math.floor(Date.now() / 60_000) * 60_000;
    const event = JSON.stringify({ '@timestamp': new Date(lastBoundary - 20_000).toISOString(), eventName: 'ConsoleLogin', user: 'alice' });
    const ingested = await call(`${server.url}/v1/ingest?tenant_id=default&index=logs&create_index=true`, { method: 'POST', key, body: `${event}\n`, headers: { 'content-type': 'application/x-ndjson' } });
    expect(ingested.body).toMatchObject({ ingested: 1 });
    const json = { 'content-type': 'application/json' };
    const sink = await call(`${server.url}/v1/event_sink`, {
      method: 'POST',
      key,
      headers: json,
      body: JSON.stringify({ tenant_id: 'default', name: 'hook', description: '', event_sink_args: { Webhook: { url: `${receiver.url}/hook` } } }),
    });
    expect(sink.status).toBe(200);
    // The receiver takes the first delivery and never answers: the server dies while waiting.
    receiver.answerNext({ status: 200, delayMs: 60_000 });
    const rule = await call(`${server.url}/v1/detection_rule`, {
      method: 'POST',
      key,
      headers: json,
      body: JSON.stringify({
        tenant_id: 'default',
        name: 'console login',
        description: '',
        time_range_s: 300,
        run_frequency_s: 60,
        enabled_state_override: 'Active',
        severity: 'High',
        query_text: '@index=logs eventName: ConsoleLogin',
        event_sink_ids: [sink.body.event_sink.id],
      }),
    });
    expect(rule.status).toBe(200);
    await receiver.waitForRequests(1, 20_000);
    await server.kill();
    server = undefined;

    server = await startVigilServer(dataDir, env);
    await receiver.waitForRequests(2, 20_000);
    const [first, second] = receiver.requests;
    expect(second!.headers['x-vigil-alert-id']).toBe(first!.headers['x-vigil-alert-id']);
    expect(JSON.parse(second!.body)).toMatchObject({ name: 'console login', results_table: { rows: [expect.objectContaining({ user: 'alice' })] } });
    let alerts: any[] = [];
    for (let i = 0; i < 50; i++) {
      alerts = (await call(`${server.url}/v1/alert?tenant_id=default`, { key: server.bootstrapKey })).body.data.alerts;
      if (alerts[0]?.status === 'delivered') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ id: first!.headers['x-vigil-alert-id'], status: 'delivered' });
    const metrics = (await call(`${server.url}/metrics`)).body as string;
    expect(metrics).toContain('vigil_alert_delivery_attempts_total{sink_type="Webhook",outcome="delivered"} 1');
    for (const name of ['vigil_detection_rule_runs_total', 'vigil_detection_rule_run_duration_seconds', 'vigil_detection_scheduler_lag_seconds', 'vigil_detections_total', 'vigil_alerts_total', 'vigil_alert_outbox_depth 0']) {
      expect(metrics).toContain(name);
    }
  }, 90_000);
});
