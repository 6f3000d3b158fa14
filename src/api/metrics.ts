import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DetectionMetrics } from '../detections/index.js';

/** What the ingest journal reports (engine/journal, `IngestJournal.stats`). */
export interface IngestJournalStats {
  readonly unwrittenEvents: number;
  readonly setAsideBatches: number;
}

/** The service's Prometheus metrics; one registry per API instance. */
export class ApiMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'vigil_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'vigil_http_request_duration_seconds',
    help: 'HTTP request duration by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  readonly ingestEvents = new Counter({
    name: 'vigil_ingest_events_total',
    help: 'Events received for ingestion, by protocol (ndjson, elasticsearch, splunk_hec, otlp, loki) and result (ingested, rejected, without_time: ingested with the ingest time)',
    labelNames: ['protocol', 'result'] as const,
    registers: [this.registry],
  });
  readonly ingestBytes = new Counter({
    name: 'vigil_ingest_bytes_total',
    help: 'Decoded bytes received for ingestion, by protocol',
    labelNames: ['protocol'] as const,
    registers: [this.registry],
  });
  readonly ingestRequests = new Counter({
    name: 'vigil_ingest_requests_total',
    help: 'Ingest requests by protocol and HTTP status',
    labelNames: ['protocol', 'status'] as const,
    registers: [this.registry],
  });
  readonly ruleRuns = new Counter({
    name: 'vigil_detection_rule_runs_total',
    help: 'Rule windows evaluated, by outcome (ok, failed, timeout)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly ruleRunDuration = new Histogram({
    name: 'vigil_detection_rule_run_duration_seconds',
    help: 'Time to evaluate one rule window: waiting for a (shared) engine statement, the query, detections and the store commit',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  readonly schedulerLag = new Histogram({
    name: 'vigil_detection_scheduler_lag_seconds',
    help: 'How long after its end plus the settle delay a window started being evaluated',
    buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600],
    registers: [this.registry],
  });
  readonly detections = new Counter({
    name: 'vigil_detections_total',
    help: 'Detection events written to _detections',
    registers: [this.registry],
  });
  readonly alerts = new Counter({
    name: 'vigil_alerts_total',
    help: 'Alerts by outcome: queued, suppressed (dedup), no_sinks when created; delivered or failed when their deliveries settle',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly deliveryAttempts = new Counter({
    name: 'vigil_alert_delivery_attempts_total',
    help: 'Alert delivery attempts by sink type and outcome (delivered, retryable, permanent)',
    labelNames: ['sink_type', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly deliveryLatency = new Histogram({
    name: 'vigil_alert_delivery_latency_seconds',
    help: 'Time of one delivery attempt, by sink type',
    labelNames: ['sink_type'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  /** Counts one ingestion's events and bytes under its protocol. */
  recordIngest(protocol: string, counts: { readonly ingested: number; readonly rejected: number; readonly withoutTime: number; readonly bytes: number }): void {
    this.ingestEvents.inc({ protocol, result: 'ingested' }, counts.ingested);
    this.ingestEvents.inc({ protocol, result: 'rejected' }, counts.rejected);
    this.ingestEvents.inc({ protocol, result: 'without_time' }, counts.withoutTime);
    this.ingestBytes.inc({ protocol }, counts.bytes);
  }

  private outboxDepthSource: (() => Promise<number>) | null = null;
  readonly outboxDepth = new Gauge({
    name: 'vigil_alert_outbox_depth',
    help: 'Alert deliveries waiting to be sent or retried',
    registers: [this.registry],
    collect: async () => {
      if (this.outboxDepthSource !== null) this.outboxDepth.set(await this.outboxDepthSource());
    },
  });

  private freeSpaceSource: (() => Promise<number>) | null = null;
  readonly dataDirFreeBytes = new Gauge({
    name: 'vigil_data_dir_free_bytes',
    help: 'Bytes free for the service on the disk holding its data dir (writes fail with 507 at 0)',
    registers: [this.registry],
    collect: async () => {
      if (this.freeSpaceSource === null) return;
      // a disk that cannot even be asked is reported as no space rather than failing the scrape
      this.dataDirFreeBytes.set(await this.freeSpaceSource().catch(() => 0));
    },
  });

  private journalSource: (() => IngestJournalStats) | null = null;
  readonly ingestJournalEvents = new Gauge({
    name: 'vigil_ingest_journal_events',
    help: 'Events acknowledged from the ingest journal and not yet written to the engine (docs/ingest.md)',
    registers: [this.registry],
    collect: () => {
      if (this.journalSource !== null) this.ingestJournalEvents.set(this.journalSource().unwrittenEvents);
    },
  });

  readonly ingestJournalSetAside = new Gauge({
    name: 'vigil_ingest_journal_set_aside_batches',
    help: 'Batches the engine would not take, kept in ingest-journal/set-aside.records since the server started',
    registers: [this.registry],
    collect: () => {
      if (this.journalSource !== null) this.ingestJournalSetAside.set(this.journalSource().setAsideBatches);
    },
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'vigil_' });
  }

  /** Reads the ingest journal's figures from `source` at every scrape (the embedded engine's). */
  observeIngestJournal(source: () => IngestJournalStats): void {
    this.journalSource = source;
  }

  /** Reads the data dir's free space from `source` at every scrape. */
  observeFreeSpace(source: () => Promise<number>): void {
    this.freeSpaceSource = source;
  }

  /** Reads the outbox depth from `source` at every scrape. */
  observeOutbox(source: () => Promise<number>): void {
    this.outboxDepthSource = source;
  }

  /** What the detection engine reports, into these collectors. */
  readonly detectionMetrics: DetectionMetrics = {
    ruleRun: (outcome, durationMs) => {
      this.ruleRuns.inc({ outcome });
      this.ruleRunDuration.observe(durationMs / 1000);
    },
    schedulerLag: (lagMs) => this.schedulerLag.observe(lagMs / 1000),
    detections: (count) => this.detections.inc(count),
    alerts: (outcome, count) => this.alerts.inc({ outcome }, count),
    deliveryAttempt: (sinkType, outcome, latencyMs) => {
      this.deliveryAttempts.inc({ sink_type: sinkType, outcome });
      this.deliveryLatency.observe({ sink_type: sinkType }, latencyMs / 1000);
    },
  };
}
