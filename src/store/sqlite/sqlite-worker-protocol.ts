/** Messages between the store (main thread) and the thread that owns the SQLite connection. */

/** `db` names one connection of the thread: each store of the process has its own. */
export type WorkerRequest =
  | { readonly id: number; readonly db: number; readonly op: 'open'; readonly path: string; readonly busyTimeoutMs: number }
  | { readonly id: number; readonly db: number; readonly op: 'run'; readonly sql: string; readonly parameters: readonly unknown[] }
  | { readonly id: number; readonly db: number; readonly op: 'close' };

/** What a statement returns, as Kysely's SQLite driver shapes it. */
export interface WorkerResult {
  readonly rows: unknown[];
  readonly numAffectedRows?: bigint;
  readonly insertId?: bigint;
  /** On close: the connection was left open, as closing it would write to files that cannot be written. */
  readonly abandoned?: true;
}

/** An error from the worker thread: its message, and the SQLite (`SQLITE_FULL`) or system (`EPERM`) code. */
export interface WorkerFailure {
  readonly message: string;
  readonly code?: string;
  /** Set when the statement was not run because the data dir cannot be written. */
  readonly notWritable?: true;
}

export type WorkerResponse =
  { readonly id: number; readonly ok: true; readonly result?: WorkerResult } | { readonly id: number; readonly ok: false; readonly error: WorkerFailure };
