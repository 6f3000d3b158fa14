import type { Session } from 'chdb';
import { EngineError, ErrorCodes } from '../../core/index.js';
import type { Workload } from '../engine.js';
import { cancelledError } from '../to-engine-error.js';

/** A session lent to one statement; `release` gives it back exactly once. */
export interface SessionLease {
  readonly session: Session;
  release(): void;
}

/**
 * How the sessions are shared: ad hoc queries together take at most `adhoc` of them, one
 * tenant's at most `adhocPerTenant`, detection windows at most `detection`. So the sessions
 * ad hoc queries cannot take are detection windows' (and the service's own statements'), and
 * another tenant always finds one that the busiest tenant does not hold.
 */
export interface SessionShares {
  readonly adhoc: number;
  readonly adhocPerTenant: number;
  readonly detection: number;
}

/**
 * The shares of a pool of `size` sessions: a quarter (at least one) kept from ad hoc queries,
 * half of the rest (at least one) for one tenant, and one kept from detection windows. A pool of
 * one session shares it; fairness between tenants needs at least three (the default is four:
 * ad hoc 3, one tenant 2, detection windows 3).
 */
export function sessionShares(size: number): SessionShares {
  if (size <= 1) return { adhoc: size, adhocPerTenant: size, detection: size };
  const adhoc = size - Math.max(1, Math.floor(size / 4));
  return { adhoc, adhocPerTenant: Math.max(1, Math.ceil(adhoc / 2)), detection: size - 1 };
}

interface Waiter {
  readonly workload: Workload | undefined;
  readonly resolve: (lease: SessionLease) => void;
  readonly reject: (error: Error) => void;
}

/**
 * A fixed set of chDB sessions lent out one statement at a time: a session runs one query at a
 * time, while sessions on the same data path run in parallel. Each loan respects the shares
 * (SessionShares); among the waiters a free session may serve, the service's own statements
 * and detection windows come first, then the ad hoc query of the tenant holding the fewest
 * sessions, in arrival order. A statement releases its session when it ends, so a query of
 * several statements (time slices) queues again between them.
 */
export class SessionPool {
  private readonly idle: Session[];
  private readonly waiters: Waiter[] = [];
  private adhocHeld = 0;
  private detectionHeld = 0;
  private readonly adhocByTenant = new Map<string, number>();
  private readonly shares: SessionShares;
  private closed = false;

  constructor(
    private readonly sessions: readonly Session[],
    shares?: SessionShares,
  ) {
    this.idle = [...sessions];
    this.shares = shares ?? sessionShares(sessions.length);
  }

  /** Lends a session, waiting for one this workload may take; aborting the wait rejects with engine_cancelled. */
  acquire(context: string, signal?: AbortSignal, workload?: Workload): Promise<SessionLease> {
    if (this.closed) return Promise.reject(closedError());
    if (signal?.aborted) return Promise.reject(cancelledError(context));
    return new Promise<SessionLease>((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        reject(cancelledError(context));
      };
      const waiter: Waiter = {
        workload,
        resolve: (lease) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(lease);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.dispatch();
    });
  }

  /** Sessions held now by ad hoc queries of a tenant (for tests and metrics). */
  heldBy(tenant: string): number {
    return this.adhocByTenant.get(tenant) ?? 0;
  }

  /** Lends idle sessions to the waiters that may take them, most deserving first. */
  private dispatch(): void {
    while (this.idle.length > 0 && !this.closed) {
      const at = this.next();
      if (at === -1) return;
      const [waiter] = this.waiters.splice(at, 1) as [Waiter];
      waiter.resolve(this.lease(this.idle.pop() as Session, waiter.workload));
    }
  }

  /** The waiter to serve next, or -1 when every waiter is over its share. */
  private next(): number {
    let best = -1;
    let bestHeld = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.waiters.length; i++) {
      const workload = (this.waiters[i] as Waiter).workload;
      if (workload === undefined) return i;
      if (workload.kind === 'detection') {
        if (this.detectionHeld < this.shares.detection) return i;
        continue;
      }
      const held = this.heldBy(workload.tenant);
      if (this.adhocHeld >= this.shares.adhoc || held >= this.shares.adhocPerTenant) continue;
      if (held < bestHeld) {
        best = i;
        bestHeld = held;
      }
    }
    return best;
  }

  private lease(session: Session, workload: Workload | undefined): SessionLease {
    this.count(workload, 1);
    let released = false;
    return {
      session,
      release: () => {
        if (released) return;
        released = true;
        this.count(workload, -1);
        this.idle.push(session);
        this.dispatch();
      },
    };
  }

  private count(workload: Workload | undefined, delta: 1 | -1): void {
    if (workload?.kind === 'detection') this.detectionHeld += delta;
    if (workload?.kind !== 'adhoc') return;
    this.adhocHeld += delta;
    const held = this.heldBy(workload.tenant) + delta;
    if (held > 0) this.adhocByTenant.set(workload.tenant, held);
    else this.adhocByTenant.delete(workload.tenant);
  }

  /** Refuses new leases, fails the waiters and closes every session. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(closedError());
    // chDB defers the teardown of a session whose statement still runs, so this is safe even
    // with leases outstanding.
    for (const session of this.sessions) session.close();
  }
}

function closedError(): EngineError {
  return new EngineError('engine is closed', { code: ErrorCodes.unavailable });
}
