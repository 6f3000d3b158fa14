import { messageOf, newId as defaultNewId, type Clock, type Logger } from '../core/index.js';
import type { DetectionRuleRecord, EventSinkRecord, Store } from '../store/index.js';
import { noDetectionMetrics, type DetectionMetrics } from './detection-metrics.js';
import { effectiveState } from './enabled-state.js';
import { evaluateWindow } from './evaluate-window.js';
import type { RunQuery } from './run-query.js';
import { DetectionShipper, type WriteDetections } from './detection-shipper.js';
import { windowCommit } from './window-commit.js';
import { WorkLeases } from './work-leases.js';
import { planWindows, type WindowTiming } from './window-plan.js';

export interface SchedulerSettings extends WindowTiming {
  /** Rule windows evaluated at once, over all rules (each rule runs one window at a time). */
  readonly maxConcurrentRuns: number;
  /** A window's query is cancelled after this long; the window is tried again later. */
  readonly ruleTimeoutMs: number;
  /** Raw-event rows a window reads at most. */
  readonly maxRows: number;
  /** How often `start()` looks for due windows. */
  readonly tickIntervalMs: number;
  /**
   * How long a rule's lease lasts from each window's start (docs/scale-out.md): longer than a
   * window may take (its time-out and its commit), so a live server never loses it; a dead
   * server's rules are taken over this long after its last claim.
   */
  readonly leaseMs: number;
}

export const defaultSchedulerSettings: SchedulerSettings = {
  settleDelayMs: 30_000,
  catchUpHorizonMs: 86_400_000,
  maxConcurrentRuns: 4,
  ruleTimeoutMs: 60_000,
  maxRows: 10_000,
  tickIntervalMs: 1000,
  leaseMs: 70_000,
};

export type { WriteDetections } from './detection-shipper.js';

/** The repositories the scheduler reads and writes: rules, their sinks, window state and leases. */
export type SchedulerRepositories = Pick<Store, 'rules' | 'sinks' | 'detectionState' | 'leases'>;

export interface SchedulerDeps {
  readonly store: SchedulerRepositories;
  readonly clock: Clock;
  readonly runQuery: RunQuery;
  readonly writeDetections: WriteDetections;
  readonly logger: Logger;
  readonly metrics?: DetectionMetrics;
  readonly newId?: () => string;
  /** Called after a window queued alerts for delivery (the worker can look at once). */
  readonly onAlertsQueued?: () => void;
  /** This process's name as holder of rule leases (unique per process start); default a new id. */
  readonly leaseHolder?: string;
}

/** What `runDue` did. */
export interface SchedulerRound {
  readonly windows: number;
  readonly failures: number;
}

class RunTimeout extends Error {}

const ruleLease = (ruleId: string): string => `rule:${ruleId}`;

/**
 * Runs Active and Staging rules on their windows (detections.md E1-E3). Each rule has a cursor in
 * the store; a rule with due windows joins a queue, and up to `maxConcurrentRuns` windows are
 * evaluated at once, one per rule at a time. After each window a rule with more due windows
 * (catch-up) goes to the back of the queue, so a rule with a long backlog or a slow query cannot
 * starve the others; a window not done within `ruleTimeoutMs` of starting (its wait for a
 * shared statement included) is cancelled and retried later. Every window
 * reads the rule afresh from the store, so a rule change applies from the next window. A window's
 * detections are committed with its cursor and alerts, then written to `_detections` in batches
 * by a shipper. Time comes from the injected clock; `runDue` lets tests drive it by hand.
 *
 * Several processes may share the store (docs/scale-out.md): each window is evaluated under the
 * rule's lease, taken before the run and required by its commit, so each window is evaluated
 * by one process, and a rule whose process died is taken over once its lease expires.
 */
export class RuleScheduler {
  private readonly queue: string[] = [];
  private readonly waiting = new Set<string>();
  private readonly running = new Map<string, AbortController>();
  private readonly retryAt = new Map<string, number>();
  private readonly tenants = new Map<string, string>();
  private readonly settled: (() => void)[] = [];
  /** Evaluations given up on (time-out, stop) that may still be finishing in the engine. */
  private readonly abandoned = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<number> | null = null;
  private readonly leases: WorkLeases;
  private readonly shipper: DetectionShipper;
  private stopped = false;
  private windows = 0;
  private failures = 0;
  private readonly metrics: DetectionMetrics;
  private readonly newId: () => string;

  constructor(
    private readonly deps: SchedulerDeps,
    private readonly settings: SchedulerSettings = defaultSchedulerSettings,
  ) {
    this.metrics = deps.metrics ?? noDetectionMetrics;
    this.newId = deps.newId ?? defaultNewId;
    this.leases = new WorkLeases(deps.store.leases, deps.leaseHolder ?? defaultNewId(), deps.clock);
    this.shipper = new DetectionShipper(deps.store, deps.writeDetections, this.leases, deps.logger);
  }

  /** Looks for due windows every `tickIntervalMs` until stopped. */
  start(): void {
    this.stopped = false;
    const tick = (): void => {
      void this.tick().catch((error: unknown) => this.deps.logger.error({ err: messageOf(error) }, 'detection scheduler tick failed'));
    };
    tick();
    this.timer = setInterval(tick, this.settings.tickIntervalMs);
    this.timer.unref();
  }

  /** Stops looking for work, cancels running windows (they run again after a restart) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.queue.length = 0;
    this.waiting.clear();
    for (const controller of this.running.values()) controller.abort();
    await this.ticking;
    await this.idle();
    await this.shipper.stop();
    // Cancelled queries end quickly; wait for them (briefly) so nothing runs once the engine closes.
    const grace = new Promise<void>((resolve) => setTimeout(resolve, 5000).unref());
    await Promise.race([Promise.allSettled([...this.abandoned]), grace]);
    // Windows not evaluated are another process's to take at once.
    await this.leases.releaseAll();
  }

  /** Evaluates every window due at the clock's time, catch-up included, and waits for them (tests and the CLI). */
  async runDue(): Promise<SchedulerRound> {
    const before = { windows: this.windows, failures: this.failures };
    while ((await this.tick()) > 0 || this.running.size > 0) await this.idle();
    await this.shipper.ship();
    return { windows: this.windows - before.windows, failures: this.failures - before.failures };
  }

  /** Queues the rules that have due windows and starts what the concurrency allows; how many were queued. */
  async tick(): Promise<number> {
    if (this.stopped) return 0;
    this.ticking ??= this.enqueueDue().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async enqueueDue(): Promise<number> {
    void this.shipper.ship(); // leftovers: a failed write, or a process that died after its commit
    const now = this.deps.clock.nowMs();
    let added = 0;
    for (const { rule, state } of await this.deps.store.detectionState.listScheduled()) {
      if (this.waiting.has(rule.id) || this.running.has(rule.id)) continue;
      if ((this.retryAt.get(rule.id) ?? 0) > now) continue;
      const plan = planWindows(state?.cursorMs ?? null, rule.runFrequencyS, now, this.settings);
      if (plan.nextEndMs === null) continue;
      this.tenants.set(rule.id, rule.tenantId);
      this.enqueue(rule.id);
      added++;
    }
    this.pump();
    return added;
  }

  private enqueue(ruleId: string): void {
    this.waiting.add(ruleId);
    this.queue.push(ruleId);
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.settings.maxConcurrentRuns && this.queue.length > 0) {
      const ruleId = this.queue.shift() as string;
      this.waiting.delete(ruleId);
      const controller = new AbortController();
      this.running.set(ruleId, controller);
      void this.runNext(ruleId, controller).finally(() => {
        this.running.delete(ruleId);
        this.pump();
        if (this.running.size === 0) for (const resolve of this.settled.splice(0)) resolve();
      });
    }
  }

  private idle(): Promise<void> {
    return this.running.size === 0 ? Promise.resolve() : new Promise((resolve) => this.settled.push(resolve));
  }

  /** Evaluates the rule's next due window; re-queues the rule when more are due. */
  private async runNext(ruleId: string, controller: AbortController): Promise<void> {
    const tenantId = this.tenants.get(ruleId) as string;
    const lease = ruleLease(ruleId);
    // Another process evaluates this rule now; it is looked at again on the next tick.
    if (!(await this.leases.claim(lease, this.settings.leaseMs).catch(() => false))) return;
    const rule = await this.deps.store.rules.get(tenantId, ruleId).catch(() => null);
    if (rule === null || effectiveState(rule) === 'Paused') return void (await this.leases.release(lease).catch(() => undefined));
    const started = performance.now();
    try {
      const more = await this.runWindow(rule, controller, lease);
      this.retryAt.delete(ruleId);
      if (more && !this.stopped) this.enqueue(ruleId);
      else await this.leases.release(lease);
    } catch (error) {
      // The lease is kept until it expires: other processes back off from a failing rule too.
      if (this.stopped) return;
      const timedOut = error instanceof RunTimeout;
      this.failures++;
      this.metrics.ruleRun(timedOut ? 'timeout' : 'failed', performance.now() - started);
      const state = await this.deps.store.detectionState.getState(ruleId).catch(() => null);
      const failures = (state?.consecutiveFailures ?? 0) + 1;
      // Back off 2^n s, up to the run frequency: the window is tried again, never skipped.
      this.retryAt.set(ruleId, this.deps.clock.nowMs() + Math.min(2 ** Math.min(failures, 20) * 1000, rule.runFrequencyS * 1000));
      const message = timedOut ? `the query did not finish within ${this.settings.ruleTimeoutMs} ms` : messageOf(error);
      this.deps.logger.warn({ rule: ruleId, tenant: tenantId, err: message, failures }, 'detection rule run failed');
      await this.deps.store.detectionState.recordFailure(tenantId, ruleId, message, this.deps.clock.nowMs()).catch(() => {});
    }
  }

  /** One window of one rule; true when another is due after it. */
  private async runWindow(rule: DetectionRuleRecord, controller: AbortController, lease: string): Promise<boolean> {
    const { store, clock } = this.deps;
    const now = clock.nowMs();
    let cursor = (await store.detectionState.getState(rule.id))?.cursorMs ?? null;
    let plan = planWindows(cursor, rule.runFrequencyS, now, this.settings);
    if (plan.gap !== null) {
      const { fromMs, toMs, windows } = plan.gap;
      if (!(await store.detectionState.recordGap(rule.tenantId, rule.id, cursor, fromMs, toMs, windows))) return false;
      this.deps.logger.warn(
        { rule: rule.id, tenant: rule.tenantId, from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), windows },
        'windows older than the catch-up horizon skipped',
      );
      cursor = toMs;
      plan = planWindows(cursor, rule.runFrequencyS, now, this.settings);
    }
    if (plan.nextEndMs === null) return false;
    const endMs = plan.nextEndMs;
    const window = { startMs: endMs - rule.timeRangeS * 1000, endMs };
    // A backfill (no cursor yet) is not late: it runs when the rule appears, not when its window was due.
    if (cursor !== null) this.metrics.schedulerLag(Math.max(0, now - (endMs + this.settings.settleDelayMs)));
    const started = performance.now();
    const timer = setTimeout(() => controller.abort(new RunTimeout()), this.settings.ruleTimeoutMs);
    let evaluation;
    try {
      const evaluating = evaluateWindow(rule, effectiveState(rule) === 'Staging', window, {
        runQuery: this.deps.runQuery,
        memory: store.detectionState,
        clock,
        newId: this.newId,
        maxRows: this.settings.maxRows,
        signal: controller.signal,
      });
      // The query is cancelled through the signal; the race also frees the slot if it does not stop.
      const aborted = new Promise<never>((_, reject) => {
        // eslint-disable-next-line no-restricted-syntax -- an abort reason inside the scheduler, never shown to a user
        const onAbort = (): void => reject(controller.signal.reason instanceof RunTimeout ? controller.signal.reason : new Error('the scheduler is stopping'));
        if (controller.signal.aborted) onAbort();
        else controller.signal.addEventListener('abort', onAbort, { once: true });
      });
      const settled: Promise<boolean> = evaluating.then(
        () => this.abandoned.delete(settled),
        () => this.abandoned.delete(settled),
      );
      this.abandoned.add(settled);
      evaluation = await Promise.race([evaluating, aborted]);
    } finally {
      clearTimeout(timer);
    }
    const queued = evaluation.alerts.filter((a) => !a.suppressed);
    const sinks = queued.length > 0 ? await this.sinksOf(rule) : [];
    const committed = await store.detectionState.commitWindow({ ...windowCommit(rule, evaluation, cursor, sinks, this.newId), lease: this.leases.proof(lease) });
    this.windows++;
    this.metrics.ruleRun('ok', performance.now() - started);
    if (!committed) {
      this.deps.logger.warn(
        { rule: rule.id, tenant: rule.tenantId, window_end: new Date(endMs).toISOString() },
        'window result dropped: the rule was deleted, or another process took it over',
      );
      return plan.dueWindows > 1;
    }
    if (evaluation.detections.length > 0) {
      this.metrics.detections(evaluation.detections.length);
      void this.shipper.ship();
    }
    const suppressed = evaluation.alerts.length - queued.length;
    if (suppressed > 0) this.metrics.alerts('suppressed', suppressed);
    if (queued.length > 0) {
      this.metrics.alerts(sinks.length === 0 ? 'no_sinks' : 'queued', queued.length);
      if (sinks.length > 0) this.deps.onAlertsQueued?.();
    }
    return plan.dueWindows > 1;
  }

  private async sinksOf(rule: DetectionRuleRecord): Promise<Pick<EventSinkRecord, 'id' | 'type'>[]> {
    const sinks = await Promise.all(rule.eventSinkIds.map((id) => this.deps.store.sinks.get(rule.tenantId, id)));
    return sinks.flatMap((sink) => (sink === null ? [] : [{ id: sink.id, type: sink.type }]));
  }
}
