import { TooManyRequestsError } from '../core/index.js';

export interface FairSlotLimits {
  /** Work running at once, in all and per tenant. */
  readonly maxConcurrent: number;
  readonly maxConcurrentPerTenant: number;
  /** Work waiting for a slot, per tenant; past it the tenant is refused (429) at once. */
  readonly maxQueuedPerTenant: number;
}

/**
 * Slots for shipper requests, shared fairly between tenants: a tenant runs at most its share at
 * once, waits in its own queue beyond that (as Elasticsearch queues bulk requests), and is refused
 * only when its queue is full. A freed slot goes to the next tenant in turn that has work waiting,
 * so a tenant sending a flood never makes another wait behind all of it.
 */
export class FairSlots {
  private running = 0;
  private readonly runningByTenant = new Map<string, number>();
  /** Waiting work per tenant, in arrival order; the map's order is the turn order. */
  private readonly queues = new Map<string, (() => void)[]>();

  constructor(
    private readonly what: string,
    private readonly limits: FairSlotLimits,
  ) {}

  async run<T>(tenant: string, work: () => Promise<T>): Promise<T> {
    await this.acquire(tenant);
    try {
      return await work();
    } finally {
      this.release(tenant);
    }
  }

  private acquire(tenant: string): Promise<void> {
    if (this.canStart(tenant) && !this.queues.has(tenant)) {
      this.start(tenant);
      return Promise.resolve();
    }
    const queue = this.queues.get(tenant) ?? [];
    if (queue.length >= this.limits.maxQueuedPerTenant) {
      return Promise.reject(new TooManyRequestsError(`${this.what}: this tenant has ${this.limits.maxQueuedPerTenant} waiting, the most it may; retry shortly`, 1));
    }
    this.queues.set(tenant, queue);
    return new Promise((resolve) => queue.push(resolve));
  }

  private canStart(tenant: string): boolean {
    return this.running < this.limits.maxConcurrent && (this.runningByTenant.get(tenant) ?? 0) < this.limits.maxConcurrentPerTenant;
  }

  private start(tenant: string): void {
    this.running++;
    this.runningByTenant.set(tenant, (this.runningByTenant.get(tenant) ?? 0) + 1);
  }

  private release(tenant: string): void {
    this.running--;
    const left = (this.runningByTenant.get(tenant) ?? 1) - 1;
    if (left === 0) this.runningByTenant.delete(tenant);
    else this.runningByTenant.set(tenant, left);
    this.startWaiting();
  }

  /** Hands free slots to waiting tenants in turn: each served tenant goes to the back of the line. */
  private startWaiting(): void {
    let progressed = true;
    while (progressed && this.running < this.limits.maxConcurrent) {
      progressed = false;
      for (const [tenant, queue] of this.queues) {
        if (!this.canStart(tenant)) continue;
        const next = queue.shift();
        this.queues.delete(tenant);
        if (queue.length > 0) this.queues.set(tenant, queue);
        if (next === undefined) continue;
        this.start(tenant);
        next();
        progressed = true;
        break;
      }
    }
  }
}
