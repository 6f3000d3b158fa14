/**
 * Rule windows share engine statements. Most rules are filters for something rare, and every rule
 * running each minute asks for the same minute: run one by one, a thousand of them cost a thousand
 * statements, nearly all of it fixed cost per statement. The batcher queues the windows' queries
 * and runs those that can share a statement (same batch key: same tenant, range and row limit,
 * decided by the runner) together, up to `maxBatch` per statement and `maxStatements` statements
 * at once; the rest run alone in the same queue. Order is first come, first served.
 */
import type { QueryRows, RunQuery, WindowQuery } from './run-query.js';

/** What the batcher needs of the events engine; the composition root wires it to the search service. */
export interface WindowQueryRunner<P extends { readonly batchKey: string | null }> {
  /** Plans the query; its `batchKey` says which others it may run with (null: only alone). */
  prepare(query: WindowQuery): Promise<P>;
  runAlone(prepared: P, signal: AbortSignal): Promise<QueryRows>;
  /** Runs prepared queries of one batch key in one statement; each result or error at its query's position. */
  runBatch(prepared: readonly P[], signal: AbortSignal): Promise<(QueryRows | Error)[]>;
}

export interface BatcherSettings {
  /** Statements running at once. */
  readonly maxStatements: number;
  /** Queries one statement runs at most. */
  readonly maxBatch: number;
}

interface Running {
  readonly controller: AbortController;
  /** Queries of the statement still waiting for it; when none is, the statement is cancelled. */
  waiting: number;
}

interface Pending<P> {
  readonly prepared: P;
  readonly resolve: (rows: QueryRows) => void;
  readonly reject: (error: unknown) => void;
  running: Running | null;
}

/** The longest queued windows wait for others still being planned. */
const maxPlanningWaitMs = 50;

export class WindowQueryBatcher<P extends { readonly batchKey: string | null }> {
  private readonly queue: Pending<P>[] = [];
  private statements = 0;
  private dispatchScheduled = false;
  /** Queries still being planned: windows started together wait for each other (up to `maxPlanningWaitMs`). */
  private planning = 0;
  private planningWait: NodeJS.Timeout | null = null;

  constructor(
    private readonly runner: WindowQueryRunner<P>,
    private readonly settings: BatcherSettings,
  ) {}

  /** The scheduler's `RunQuery`. */
  readonly run: RunQuery = async (query) => {
    this.planning++;
    let prepared: P;
    try {
      prepared = await this.runner.prepare(query);
    } finally {
      if (--this.planning === 0) this.scheduleDispatch();
    }
    const { signal } = query;
    signal?.throwIfAborted();
    return new Promise<QueryRows>((resolve, reject) => {
      // Once settled, a later abort (the scheduler stopping) must not touch the statement count.
      const onAbort = (): void => this.abandon(pending, signal?.reason);
      const settled = (): void => signal?.removeEventListener('abort', onAbort);
      const pending: Pending<P> = {
        prepared,
        resolve: (rows) => {
          settled();
          resolve(rows);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
        running: null,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(pending);
      this.scheduleDispatch();
    });
  };

  /** Queries waiting for a statement (the tests read it). */
  get queued(): number {
    return this.queue.length;
  }

  private abandon(pending: Pending<P>, reason: unknown): void {
    pending.reject(reason);
    if (pending.running === null) {
      const at = this.queue.indexOf(pending);
      if (at !== -1) this.queue.splice(at, 1);
    } else if (--pending.running.waiting === 0) {
      pending.running.controller.abort(reason);
    }
  }

  // Dispatch after the current turn, and once the queries started with these are planned too
  // (planning reads the store, whose answers come over several turns), so that windows started
  // together share statements; a planning that takes long holds the queue at most maxPlanningWaitMs.
  private scheduleDispatch(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      if (this.planning > 0 && this.queue.length > 0) this.planningWait ??= setTimeout(() => this.dispatch(), maxPlanningWaitMs);
      else this.dispatch();
    });
  }

  private dispatch(): void {
    if (this.planningWait !== null) clearTimeout(this.planningWait);
    this.planningWait = null;
    while (this.statements < this.settings.maxStatements && this.queue.length > 0) {
      const group = this.takeGroup();
      const running: Running = { controller: new AbortController(), waiting: group.length };
      for (const pending of group) pending.running = running;
      this.statements++;
      void this.execute(group, running.controller.signal).finally(() => {
        this.statements--;
        this.scheduleDispatch();
      });
    }
  }

  /** The oldest query, with the next queries of its batch key behind it. */
  private takeGroup(): Pending<P>[] {
    const head = this.queue.shift() as Pending<P>;
    const key = head.prepared.batchKey;
    const group = [head];
    if (key === null) return group;
    for (let i = 0; i < this.queue.length && group.length < this.settings.maxBatch;) {
      if ((this.queue[i] as Pending<P>).prepared.batchKey === key) group.push(...this.queue.splice(i, 1));
      else i++;
    }
    return group;
  }

  private async execute(group: readonly Pending<P>[], signal: AbortSignal): Promise<void> {
    try {
      if (group.length === 1) {
        const [only] = group as [Pending<P>];
        only.resolve(await this.runner.runAlone(only.prepared, signal));
        return;
      }
      const results = await this.runner.runBatch(
        group.map((p) => p.prepared),
        signal,
      );
      group.forEach((pending, i) => {
        const result = results[i];
        // eslint-disable-next-line no-restricted-syntax -- internal invariant: a batch answers every query it holds
        if (result === undefined || result instanceof Error) pending.reject(result ?? new Error('the batch returned no result for this query'));
        else pending.resolve(result);
      });
    } catch (error) {
      for (const pending of group) pending.reject(error);
    }
  }
}
