import type { Session } from 'chdb';
import { EngineError, ErrorCodes } from '../../core/index.js';
import { cancelledError } from '../to-engine-error.js';

/** A session lent to one statement; `release` gives it back exactly once. */
export interface SessionLease {
  readonly session: Session;
  release(): void;
}

interface Waiter {
  readonly resolve: (lease: SessionLease) => void;
  readonly reject: (error: Error) => void;
}

/**
 * A fixed set of chDB sessions lent out one statement at a time: a session runs one query at a
 * time, while sessions on the same data path run in parallel. Waiters are served in order.
 */
export class SessionPool {
  private readonly idle: Session[];
  private readonly waiters: Waiter[] = [];
  private closed = false;

  constructor(private readonly sessions: readonly Session[]) {
    this.idle = [...sessions];
  }

  /** Lends a session, waiting for one to be free; aborting the wait rejects with engine_cancelled. */
  acquire(context: string, signal?: AbortSignal): Promise<SessionLease> {
    if (this.closed) return Promise.reject(closedError());
    if (signal?.aborted) return Promise.reject(cancelledError(context));
    const session = this.idle.pop();
    if (session) return Promise.resolve(this.lease(session));
    return new Promise<SessionLease>((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        reject(cancelledError(context));
      };
      const waiter: Waiter = {
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
    });
  }

  private lease(session: Session): SessionLease {
    let released = false;
    return {
      session,
      release: () => {
        if (released) return;
        released = true;
        const waiter = this.waiters.shift();
        if (waiter && !this.closed) waiter.resolve(this.lease(session));
        else this.idle.push(session);
      },
    };
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
