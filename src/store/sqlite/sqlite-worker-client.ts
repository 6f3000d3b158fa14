import { Worker } from 'node:worker_threads';
import { ErrorCodes, StoreError, VigilError, describeStorageFault, messageOf } from '../../core/index.js';
import type { WorkerFailure, WorkerRequest, WorkerResponse, WorkerResult } from './sqlite-worker-protocol.js';

type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Pending {
  readonly resolve: (result: WorkerResult | undefined) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export interface SqliteWorkerOptions {
  /** How long a write waits for another process's write lock (SQLite's busy_timeout). */
  readonly busyTimeoutMs: number;
  /** How long a statement may take before its caller gives up with `unavailable`. */
  readonly statementTimeoutMs: number;
}

/**
 * The process's SQLite thread (sqlite-thread.js): sends requests, matches answers, and never
 * waits forever. A request that does not answer within its time limit fails with `unavailable`
 * (the thread may be stuck in the disk); the answer, if it comes, is dropped, and requests
 * queued behind it still run in order. Started with the first store and kept for the next ones
 * (a start costs about 70 ms of CPU, and tests open hundreds of stores), it keeps the process
 * alive only while a request is under way, and ends with the process.
 */
class SqliteThread {
  private static current: SqliteThread | null = null;
  private readonly worker = new Worker(new URL('./sqlite-thread.js', import.meta.url));
  private readonly pending = new Map<number, Pending>();
  /** Requests whose callers gave up and whose answers have not come: while any, the thread is stuck. */
  private readonly overdue = new Set<number>();
  /** Set once a connection was left open because its files could not be written (sqlite-thread.js, close). */
  abandoned = false;
  private nextId = 1;
  private stopped: StoreError | null = null;

  /**
   * True while a request went unanswered past its time limit (the thread is stuck in the disk, or
   * in a signal handler), or once a connection was left open on files that cannot be written
   * (closing it at the end, as the thread will, is a SIGBUS). A process that ends normally waits
   * for its threads, so such a process must be ended by force.
   */
  static holdsExit(): boolean {
    const thread = SqliteThread.current;
    return thread !== null && (thread.overdue.size > 0 || thread.abandoned);
  }

  /** The running thread, or a new one when there is none or it failed. */
  static shared(): SqliteThread {
    if (SqliteThread.current === null || SqliteThread.current.stopped !== null) SqliteThread.current = new SqliteThread();
    return SqliteThread.current;
  }

  private constructor() {
    this.worker.unref();
    this.worker.on('message', (response: WorkerResponse) => this.settle(response));
    this.worker.on('error', (error) => this.stop(error));
    // eslint-disable-next-line no-restricted-syntax -- the thread's death, as raw as better-sqlite3's errors; the store's callers wrap it
    this.worker.on('exit', (code) => this.stop(new Error(`the store's thread exited (${code})`)));
  }

  send(request: Request, timeoutMs: number): Promise<WorkerResult | undefined> {
    if (this.stopped !== null) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.forget(id);
        this.overdue.add(id);
        reject(
          new StoreError(`the metadata store did not answer within ${Math.round(timeoutMs / 1000)} s (is the disk holding the data dir stuck?)`, { code: ErrorCodes.unavailable }),
        );
      }, timeoutMs);
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject, timer });
      this.worker.postMessage({ ...request, id });
    });
  }

  private settle(response: WorkerResponse): void {
    this.overdue.delete(response.id);
    const pending = this.forget(response.id);
    if (pending === undefined) return; // its caller gave up already
    if (response.ok) pending.resolve(response.result);
    else pending.reject(errorOf(response.error));
  }

  private forget(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    if (pending === undefined) return undefined;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if (this.pending.size === 0) this.worker.unref();
    return pending;
  }

  private stop(reason: Error): void {
    this.stopped ??= new StoreError(`the metadata store stopped: ${reason.message}`, { code: ErrorCodes.unavailable, cause: reason });
    for (const [id, pending] of this.pending) {
      this.forget(id);
      pending.reject(this.stopped);
    }
  }
}

/**
 * One store's connection in the process's SQLite thread. Statements run there one at a time, so
 * no store call ever blocks the event loop, and none waits longer than its time limit.
 */
export class SqliteWorkerClient {
  private static nextConnection = 1;
  private closed: Promise<void> | null = null;

  private constructor(
    private readonly thread: SqliteThread,
    private readonly db: number,
    private readonly options: SqliteWorkerOptions,
  ) {}

  /** Opens the database in the SQLite thread; StoreError naming the cause when it cannot. */
  static async open(path: string, options: SqliteWorkerOptions): Promise<SqliteWorkerClient> {
    const client = new SqliteWorkerClient(SqliteThread.shared(), SqliteWorkerClient.nextConnection++, options);
    try {
      await client.thread.send({ op: 'open', db: client.db, path, busyTimeoutMs: options.busyTimeoutMs }, options.statementTimeoutMs);
    } catch (error) {
      await client.close();
      if (error instanceof VigilError) throw error;
      // The cause's words (`directory does not exist`, `file is not a database`) are the useful part.
      throw new StoreError(`cannot open sqlite store ${path}: ${messageOf(error)}`, { cause: error });
    }
    return client;
  }

  /** Runs one statement on this store's connection. */
  async run(sql: string, parameters: readonly unknown[]): Promise<WorkerResult> {
    const result = await this.thread.send({ op: 'run', db: this.db, sql, parameters }, this.options.statementTimeoutMs);
    return result ?? { rows: [] };
  }

  /** Closes the connection, waiting at most the statement time limit (a thread stuck in the disk is not waited for longer). */
  close(): Promise<void> {
    this.closed ??= (async () => {
      const result = await this.thread.send({ op: 'close', db: this.db }, this.options.statementTimeoutMs).catch(() => undefined);
      if (result?.abandoned) this.thread.abandoned = true;
    })();
    return this.closed;
  }
}

/**
 * The error a caller sees: a data dir that cannot be written is `unavailable` and a full disk
 * `insufficient_storage` (the API answers 503 and 507, and the store works again once the cause
 * is gone); anything else keeps SQLite's code for the repositories (constraint violations).
 */
function errorOf(failure: WorkerFailure): Error {
  // eslint-disable-next-line no-restricted-syntax -- rebuilds SQLite's error from the thread as the cause of the typed error below
  const cause = Object.assign(new Error(failure.message), failure.code === undefined ? {} : { code: failure.code });
  const fault = failure.notWritable ? 'not_writable' : failure.code === 'SQLITE_FULL' ? 'full' : null;
  if (fault !== null) {
    const { code, message } = describeStorageFault(fault, 'the metadata store');
    return new StoreError(message, { code, cause });
  }
  if (failure.code?.startsWith('SQLITE_READONLY') || failure.code?.startsWith('SQLITE_IOERR') || failure.code?.startsWith('SQLITE_CANTOPEN')) {
    return new StoreError(`the metadata store cannot use its file (${failure.code})`, { code: ErrorCodes.unavailable, cause });
  }
  return cause;
}

/** True when the process's SQLite thread would keep the process from ending: it must end by force (bounded shutdown). */
export function sqliteThreadHoldsExit(): boolean {
  return SqliteThread.holdsExit();
}
