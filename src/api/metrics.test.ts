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

describe('ApiMetrics: the data dir on /metrics', () => {
  it('exposes the ingest journal: events not yet written and batches set aside, read at each scrape', async () => {
    const metrics = new ApiMetrics();
    let unwrittenEvents = 1200;
    metrics.observeIngestJournal(() => ({ unwrittenEvents, setAsideBatches: 1 }));
    expect(await metrics.registry.metrics()).toContain('vigil_ingest_journal_events 1200');
    unwrittenEvents = 0;
    const text = await metrics.registry.metrics();
    expect(text).toContain('vigil_ingest_journal_events 0');
    expect(text).toContain('vigil_ingest_journal_set_aside_batches 1');
  });

  it('exposes the free space at each scrape, and 0 when the disk cannot be asked (a scrape never fails on it)', async () => {
    const metrics = new ApiMetrics();
    let free: number | Error = 5_000_000;
    metrics.observeFreeSpace(async () => {
      if (free instanceof Error) throw free;
      return free;
    });
    expect(await metrics.registry.metrics()).toMatch(/^vigil_data_dir_free_bytes 5000000$/m);
    free = 4096;
    expect(await metrics.registry.metrics()).toMatch(/^vigil_data_dir_free_bytes 4096$/m);
    free = new Error('EIO');
    expect(await metrics.registry.metrics()).toMatch(/^vigil_data_dir_free_bytes 0$/m);
  });
});
