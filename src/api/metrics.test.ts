import { describe, expect, it } from 'vitest';
import { ApiMetrics } from './metrics.js';

describe('ApiMetrics: the detection engine on /metrics', () => {
  it('exposes rule runs, lag, detections, alerts, delivery attempts and the outbox depth', async () => {
    const metrics = new ApiMetrics();
    const m = metrics.detectionMetrics;
    m.ruleRun('ok', 120);
    m.ruleRun('timeout', 60_000);
    m.schedulerLag(2500);
    m.detections(3);
    m.alerts('queued', 2);
    m.alerts('suppressed', 1);
    m.deliveryAttempt('Chat', 'retryable', 40);
    m.deliveryAttempt('Chat', 'delivered', 35);
    metrics.observeOutbox(async () => 7);
    const text = await metrics.registry.metrics();
    for (const line of [
      'vigil_detection_rule_runs_total{outcome="ok"} 1',
      'vigil_detection_rule_runs_total{outcome="timeout"} 1',
      'vigil_detection_rule_run_duration_seconds_count 2',
      'vigil_detection_scheduler_lag_seconds_sum 2.5',
      'vigil_detections_total 3',
      'vigil_alerts_total{outcome="queued"} 2',
      'vigil_alerts_total{outcome="suppressed"} 1',
      'vigil_alert_delivery_attempts_total{sink_type="Chat",outcome="retryable"} 1',
      'vigil_alert_delivery_attempts_total{sink_type="Chat",outcome="delivered"} 1',
      'vigil_alert_delivery_latency_seconds_count{sink_type="Chat"} 2',
      'vigil_alert_outbox_depth 7',
    ]) {
      expect(text).toContain(line);
    }
  });
});
