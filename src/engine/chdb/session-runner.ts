import { drainPending, type Session, type StreamChunk } from 'chdb';
import { EngineError, ErrorCodes, messageOf, type Logger } from '../../core/index.js';
import type { RunningQuery, Workload } from '../engine.js';
import { sqlString } from '../../core/index.js';
import { cancelledError, toEngineError } from '../to-engine-error.js';
import { openSessions } from './open-sessions.js';
import { SessionPool } from './session-pool.js';

interface OpenSessions {
  readonly pool: SessionPool;
  /** Runs KILL QUERY and reads system.processes, so cancel works while the pool is busy. */
  readonly control: Session;
}

/** Reads are killed on close; writes are left to finish. */
export type StatementKind = 'read' | 'write';

/**
 * Runs statements on chDB sessions: a pool for the work, one control session for KILL QUERY and
 * progress. Aborting a chDB promise does not stop the engine, so cancellation is `KILL QUERY`
 * by the statement's `log_comment` tag, and a session returns to the pool only once the engine
 * has let go of it.
 */
export class SessionRunner {
  private opened: OpenSessions | null = null;
  private closing: Promise<void> | null = null;
  /** Tags of the statements in flight (a tag may be shared), with what they are. */
  private readonly running = new Map<string, { count: number; kind: StatementKind }>();
  private controlChain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly poolSize: number,
    private readonly logger: Logger,
  ) {}

  /** Opens the sessions on first use, so construction never touches the disk. */
  private sessions(): OpenSessions {
    if (this.closing) throw new EngineError('engine is closed', { code: ErrorCodes.unavailable });
    if (!this.opened) {
      const [control, ...pool] = openSessions(this.path, this.poolSize + 1);
      this.opened = { pool: new SessionPool(pool), control: control as Session };
      this.logger.info({ path: this.path, poolSize: pool.length }, 'engine opened');
    }
    return this.opened;
  }

  /** Runs one statement on a pooled session, within its workload's share; aborting the signal kills it in the engine. */
  async run<T>(context: string, tag: string, kind: StatementKind, signal: AbortSignal | undefined, work: (session: Session) => Promise<T>, workload?: Workload): Promise<T> {
    const lease = await this.sessions().pool.acquire(context, signal, workload);
    if (signal?.aborted) {
      lease.release();
      throw cancelledError(context);
    }
    this.track(tag, kind, 1);
    const statement = work(lease.session)
      .catch(async (error: unknown) => {
        await this.discardLeftover(lease.session);
        throw error;
      })
      .finally(() => {
        this.track(tag, kind, -1);
        lease.release();
      });
    const onAbort = () => void this.killUntilStopped(tag);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const value = await statement;
      if (signal?.aborted) throw cancelledError(context);
      return value;
    } catch (error) {
      throw toEngineError(context, error, signal?.aborted ?? false);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Streams a statement's JSONEachRow chunks; leaving the loop early stops the statement. */
  async *stream<Row>(context: string, tag: string, statement: string, signal: AbortSignal | undefined, workload?: Workload): AsyncGenerator<Row[]> {
    const lease = await this.sessions().pool.acquire(context, signal, workload);
    this.track(tag, 'read', 1);
    const onAbort = () => void this.killUntilStopped(tag);
    signal?.addEventListener('abort', onAbort, { once: true });
    let chunks: AsyncIterator<StreamChunk> | undefined;
    let failed = false;
    try {
      if (signal?.aborted) throw cancelledError(context);
      chunks = lease.session.queryStream(statement, { format: 'JSONEachRow' })[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<StreamChunk>;
        try {
          next = await chunks.next();
        } catch (error) {
          failed = true;
          throw toEngineError(context, error, signal?.aborted ?? false);
        }
        if (next.done) break;
        if (signal?.aborted) throw cancelledError(context);
        const rows = next.value.rows<Row>();
        if (rows.length > 0) yield rows;
      }
      if (signal?.aborted) throw cancelledError(context);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // No fetch is in flight here (a consumer's break lands on the yield), so returning the
      // chDB iterator cancels the stream at once, which stops the query in the engine.
      await chunks?.return?.();
      // chDB 3.4 does not free a stream that failed: the query stays in system.processes
      // until the session runs another statement.
      if (failed) await this.discardLeftover(lease.session);
      this.track(tag, 'read', -1);
      lease.release();
    }
  }

  /** Progress of the statements carrying this tag, from system.processes. */
  async runningQuery(tag: string): Promise<RunningQuery | null> {
    const rows = await this.control<{ n: number; read_rows: number; read_bytes: number; elapsed: number }>(
      'reading query progress',
      `SELECT count() AS n, sum(read_rows) AS read_rows, sum(read_bytes) AS read_bytes, max(elapsed) AS elapsed
FROM system.processes WHERE Settings['log_comment'] = ${sqlString(tag)}`,
    );
    const row = rows[0];
    if (!row || Number(row.n) === 0) return null;
    return { tag, rowsRead: Number(row.read_rows), bytesRead: Number(row.read_bytes), elapsedMs: Number(row.elapsed) * 1000 };
  }

  /** Answers a trivial statement on the control session: whether the engine answers, however busy its pool. */
  async ping(): Promise<void> {
    await this.control('checking the engine', 'SELECT 1');
  }

  /** Kills the statements carrying this tag; a no-op when none runs. */
  async cancel(tag: string): Promise<void> {
    await this.kill(tag);
    // A statement dispatched a moment ago may not be in system.processes yet: keep killing
    // until it settles.
    if (this.running.has(tag)) void this.killUntilStopped(tag);
  }

  /** Stops running reads, lets writes finish, then releases the data directory. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const opened = this.opened;
    if (!opened) return;
    const reads = [...this.running].filter(([, entry]) => entry.kind === 'read').map(([tag]) => tag);
    await Promise.all(reads.map((tag) => this.kill(tag, opened.control).catch(() => undefined)));
    opened.pool.close();
    opened.control.close();
    // close() defers tearing down a session whose statement still runs; waiting here means
    // the directory is really released (status file gone) when close resolves.
    await drainPending();
    this.logger.info({ path: this.path }, 'engine closed');
  }

  /**
   * chDB 3.4 keeps the partial output of a failed statement (e.g. the header FORMAT JSON wrote
   * before a KILL or a timeout) in the session and prepends it to the session's next answer.
   * One throwaway statement absorbs it before the session serves anyone else.
   */
  private async discardLeftover(session: Session): Promise<void> {
    try {
      await session.queryAsync('SELECT 1', { format: 'TabSeparated' });
    } catch (error) {
      this.logger.warn({ error: messageOf(error) }, 'engine could not reset a session after a failure');
    }
  }

  private track(tag: string, kind: StatementKind, delta: 1 | -1): void {
    const entry = this.running.get(tag) ?? { count: 0, kind };
    entry.count += delta;
    if (entry.count > 0) this.running.set(tag, entry);
    else this.running.delete(tag);
  }

  private async kill(tag: string, session?: Session): Promise<void> {
    await this.control('cancelling query', `KILL QUERY WHERE Settings['log_comment'] = ${sqlString(tag)} ASYNC`, session);
  }

  /**
   * Repeats KILL with backoff until no statement of ours carries the tag (measured: one KILL
   * stops a query in ~30 ms). Bounded: a stream whose consumer stopped pulling notices the kill
   * only on its next pull.
   */
  private async killUntilStopped(tag: string): Promise<void> {
    for (let attempt = 0, delayMs = 20; attempt < 20 && this.running.has(tag); attempt++, delayMs = Math.min(delayMs * 2, 500)) {
      try {
        await this.kill(tag);
      } catch (error) {
        this.logger.warn({ tag, error: messageOf(error) }, 'engine could not cancel a query');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }

  /** Runs a statement on the control session, one at a time (a session runs one query at a time). */
  private control<Row>(context: string, sql: string, session: Session = this.sessions().control): Promise<Row[]> {
    const result = this.controlChain.then(async () => {
      try {
        const text = (await session.queryAsync(sql, { format: 'JSON' })).text();
        // KILL QUERY that matches nothing answers with no output at all.
        return text.trim() === '' ? [] : ((JSON.parse(text) as { data?: Row[] }).data ?? []);
      } catch (error) {
        await this.discardLeftover(session);
        throw toEngineError(context, error);
      }
    });
    this.controlChain = result.catch(() => undefined);
    return result;
  }
}
