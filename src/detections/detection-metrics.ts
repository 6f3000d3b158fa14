import type { EventSinkType } from '../domain/index.js';

/** How a rule run ended. */
export type RunOutcome = 'ok' | 'failed' | 'timeout';
/** What became of an alert: at creation (queued, suppressed, no_sinks), then when its delivery settles (delivered, failed). */
export type AlertOutcome = 'queued' | 'suppressed' | 'no_sinks' | 'delivered' | 'failed';

/**
 * What the engine reports for /metrics (issue 6, operations). The API implements it with
 * Prometheus collectors; detections only calls it, so it stays free of any metrics library.
 */
export interface DetectionMetrics {
  ruleRun(outcome: RunOutcome, durationMs: number): void;
  /** How long after `end + settle` a window's evaluation started. */
  schedulerLag(lagMs: number): void;
  detections(count: number): void;
  alerts(outcome: AlertOutcome, count: number): void;
  deliveryAttempt(sinkType: EventSinkType, outcome: 'delivered' | 'retryable' | 'permanent', latencyMs: number): void;
}

export const noDetectionMetrics: DetectionMetrics = {
  ruleRun: () => {},
  schedulerLag: () => {},
  detections: () => {},
  alerts: () => {},
  deliveryAttempt: () => {},
};
