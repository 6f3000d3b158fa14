import { messageOf, newId as defaultNewId, type Clock, type Logger } from '../core/index.js';
import type { AlertMessage } from '../domain/index.js';
import { defaultRetryPolicy, permanent, retryable, retryDelayMs, type DeliveryOutcome, type RetryPolicy, type Sink } from '../sinks/index.js';
import type { AlertDeliveryRecord, ClaimedDelivery, DeliveryStatus, Store } from '../store/index.js';
import { noDetectionMetrics, type DetectionMetrics } from './detection-metrics.js';

/** The sink a delivery goes to, built with its secrets; null when the sink no longer exists. */
export type ResolveSink = (tenantId: string, sinkId: string) => Promise<Sink | null>;

export interface DeliverySettings {
  /** Deliveries sent at once, over all sinks. */
  readonly concurrency: number;
  /** Deliveries sent at once to one sink, so a slow sink holds at most this many slots. */
  readonly perSinkConcurrency: number;
  /** How long a claimed delivery stays leased; past it (the worker died) it is sent again. Longer than a send's time-out. */
  readonly leaseMs: number;
  /** How often `start()` looks for due deliveries (alerts queued in this process wake it at once). */
  readonly pollIntervalMs: number;
  /** On stop, sends still running after this long are cancelled and re-queued. */
  readonly stopGraceMs: number;
  readonly retry: RetryPolicy;
}

export const defaultDeliverySettings: DeliverySettings = {
  concurrency: 8,
  perSinkConcurrency: 2,
  leaseMs: 120_000,
  pollIntervalMs: 1000,
  stopGraceMs: 5000,
  retry: defaultRetryPolicy,
};

export interface DeliveryWorkerDeps {
  /** Only the alert outbox: the worker claims, sends and records, nothing else. */
  readonly store: Pick<Store, 'alerts'>;
  readonly clock: Clock;
  readonly resolveSink: ResolveSink;
  readonly logger: Logger;
  readonly metrics?: DetectionMetrics;
  /** In [0, 1): the retry jitter. */
  readonly random?: () => number;
  readonly newId?: () => string;
}

/**
 * Sends the alert outbox (detections.md E13): at least once, every attempt recorded. A retryable
 * failure waits 1 s doubling to 5 min (±20 % jitter), or what Retry-After asked, and a rate-limited
 * sink is held back as a whole for that long; attempts stop at the give-up horizon, leaving the
 * delivery failed with its last error. A permanent failure fails at once. Deliveries are claimed
 * one at a time under a lease, with at most `perSinkConcurrency` per sink, so a sink that keeps
 * failing or hangs never blocks the others.
 */
export class DeliveryWorker {
  private readonly inFlight = new Map<string, { sinkId: string; controller: AbortController; done: Promise<void> }>();
  private readonly perSink = new Map<string, number>();
  private readonly heldUntil = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  private again = false;
  private stopping = false;
  private readonly metrics: DetectionMetrics;
  private readonly random: () => number;
  private readonly newId: () => string;

  constructor(
    private readonly deps: DeliveryWorkerDeps,
    private readonly settings: DeliverySettings = defaultDeliverySettings,
  ) {
    this.metrics = deps.metrics ?? noDetectionMetrics;
    this.random = deps.random ?? Math.random;
    this.newId = deps.newId ?? defaultNewId;
  }

  start(): void {
    this.stopping = false;
    this.kick();
    this.timer = setInterval(() => this.kick(), this.settings.pollIntervalMs);
    this.timer.unref();
  }

  /** Looks for due deliveries now. */
  kick(): void {
    if (this.stopping) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch((error: unknown) => this.deps.logger.error({ err: messageOf(error) }, 'delivery worker failed to claim deliveries'))
      .finally(() => {
        this.pumping = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Sends every delivery due at the clock's time, retries due meanwhile included, and waits for them (tests). */
  async runDue(): Promise<void> {
    for (;;) {
      await this.pumping;
      await this.pump();
      if (this.inFlight.size === 0) return;
      await Promise.race([...this.inFlight.values()].map((f) => f.done));
    }
  }

  /** Stops claiming; sends still running after the grace period are cancelled and re-queued. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.pumping;
    const running = [...this.inFlight.values()];
    const grace = new Promise<void>((resolve) => setTimeout(resolve, this.settings.stopGraceMs).unref());
    await Promise.race([Promise.all(running.map((f) => f.done)), grace]);
    for (const flight of this.inFlight.values()) flight.controller.abort();
    await Promise.all([...this.inFlight.values()].map((f) => f.done));
  }

  private async pump(): Promise<void> {
    while (!this.stopping && this.inFlight.size < this.settings.concurrency) {
      const now = this.deps.clock.nowMs();
      const skip = new Set<string>();
      for (const [sinkId, count] of this.perSink) if (count >= this.settings.perSinkConcurrency) skip.add(sinkId);
      for (const [sinkId, until] of this.heldUntil) {
        if (until > now) skip.add(sinkId);
        else this.heldUntil.delete(sinkId);
      }
      const [claimed] = await this.deps.store.alerts.claimDue(now, 1, now + this.settings.leaseMs, skip);
      if (claimed === undefined) return;
      this.launch(claimed);
    }
  }

  private launch(claimed: ClaimedDelivery): void {
    const { delivery } = claimed;
    const controller = new AbortController();
    this.perSink.set(delivery.sinkId, (this.perSink.get(delivery.sinkId) ?? 0) + 1);
    const done = this.deliver(claimed, controller.signal)
      .catch((error: unknown) => this.deps.logger.error({ err: messageOf(error), delivery: delivery.id }, 'recording a delivery attempt failed'))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        const left = (this.perSink.get(delivery.sinkId) ?? 1) - 1;
        if (left <= 0) this.perSink.delete(delivery.sinkId);
        else this.perSink.set(delivery.sinkId, left);
        this.kick();
      });
    this.inFlight.set(delivery.id, { sinkId: delivery.sinkId, controller, done });
  }

  private async deliver({ delivery, payload }: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const outcome = await this.attempt(delivery, payload, signal);
    const now = this.deps.clock.nowMs();
    let status: DeliveryStatus;
    let nextAttemptAt = delivery.nextAttemptAt;
    let error = outcome.kind === 'delivered' ? null : outcome.error;
    if (outcome.kind === 'delivered') status = 'delivered';
    else if (outcome.kind === 'permanent') status = 'failed';
    else if (signal.aborted) {
      status = 'pending'; // interrupted by shutdown: due again at once, in this or the next process
      nextAttemptAt = now;
      error = 'interrupted: the worker was stopping';
    } else {
      const delay = retryDelayMs(this.settings.retry, delivery.attempts + 1, outcome.retryAfterMs, this.random);
      if (outcome.retryAfterMs !== null) this.heldUntil.set(delivery.sinkId, now + delay);
      nextAttemptAt = now + delay;
      status = nextAttemptAt > delivery.queuedAt + this.settings.retry.giveUpAfterMs ? 'failed' : 'pending';
      if (status === 'failed') error = `gave up after ${delivery.attempts + 1} attempts: ${outcome.error}`;
    }
    this.metrics.deliveryAttempt(delivery.sinkType, outcome.kind, outcome.latencyMs);
    await this.deps.store.alerts.recordAttempt(
      delivery.id,
      {
        attempt: {
          id: this.newId(),
          deliveryId: delivery.id,
          alertId: delivery.alertId,
          at: now,
          outcome: outcome.kind,
          httpStatus: outcome.httpStatus,
          latencyMs: outcome.latencyMs,
          error,
        },
        status,
        nextAttemptAt,
      },
      now,
    );
    if (status === 'failed') this.deps.logger.warn({ alert: delivery.alertId, sink: delivery.sinkId, err: error }, 'alert delivery failed');
    if (status !== 'pending') {
      const alert = await this.deps.store.alerts.get(delivery.tenantId, delivery.alertId);
      if (alert?.status === 'delivered' || alert?.status === 'failed') this.metrics.alerts(alert.status, 1);
    }
  }

  /** One send; a sink that cannot be built or throws counts as a failed attempt, never as a worker failure. */
  private async attempt(delivery: AlertDeliveryRecord, alert: AlertMessage, signal: AbortSignal): Promise<DeliveryOutcome> {
    let sink: Sink | null;
    try {
      sink = await this.deps.resolveSink(delivery.tenantId, delivery.sinkId);
    } catch (error) {
      return retryable(null, 0, `cannot prepare the sink: ${messageOf(error)}`);
    }
    if (sink === null) return permanent(null, 0, `event sink ${delivery.sinkId} no longer exists`);
    try {
      return await sink.send(alert, signal);
    } catch (error) {
      return retryable(null, 0, messageOf(error));
    }
  }
}
