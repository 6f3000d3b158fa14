import { EngineError, ErrorCodes, TooManyRequestsError } from '../core/index.js';

/** Work counted against the concurrency limits while it runs. */
export interface RunningWork {
  readonly tenant: string;
  cancel(): void;
}

/**
 * The concurrency limits of ad hoc work (queries, histograms, field values, previews): at most
 * `maxConcurrent` at once over all tenants and `maxConcurrentPerTenant` per tenant, past which
 * the answer is 429, so no tenant starves another.
 */
export class RunAdmission {
  private readonly running = new Set<RunningWork>();

  constructor(private readonly limits: { readonly maxConcurrent: number; readonly maxConcurrentPerTenant: number; readonly blockingTimeoutS: number }) {}

  /** Throws TooManyRequestsError when the tenant may not start more work now. */
  admit(tenant: string): void {
    if (this.running.size >= this.limits.maxConcurrent) {
      throw new TooManyRequestsError(`${this.limits.maxConcurrent} queries are running; retry shortly`, 1);
    }
    let mine = 0;
    for (const run of this.running) if (run.tenant === tenant) mine++;
    if (mine >= this.limits.maxConcurrentPerTenant) {
      throw new TooManyRequestsError(`tenant ${tenant} has ${mine} queries running (the limit); retry shortly`, 1);
    }
  }

  /** Counts a started run until it is done. */
  track(run: RunningWork & { readonly done: Promise<void> }): void {
    this.running.add(run);
    void run.done.then(() => this.running.delete(run));
  }

  /**
   * Runs `work` admitted and counted, under the blocking time limit (504 past it); its signal
   * aborts when the limit passes, when `signal` aborts (a client hung up) or at `cancelAll`.
   */
  async hold<T>(tenant: string, work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.admit(tenant);
    const controller = new AbortController();
    const running: RunningWork = { tenant, cancel: () => controller.abort() };
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.limits.blockingTimeoutS * 1000);
    this.running.add(running);
    try {
      return await work(controller.signal);
    } catch (error) {
      if (timedOut) throw new EngineError(`the work did not finish within ${this.limits.blockingTimeoutS} s; narrow the time range`, { code: ErrorCodes.engineTimeout });
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      this.running.delete(running);
    }
  }

  get size(): number {
    return this.running.size;
  }

  cancelAll(): void {
    for (const run of this.running) run.cancel();
  }
}
