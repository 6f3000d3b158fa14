// @ts-check
/**
 * The thread that owns the process's SQLite connections (one per store; a process has one, tests
 * have many). better-sqlite3 is synchronous: on the main thread a slow disk, another process's
 * write lock or a data dir that stops being writable would stop every request. This thread runs
 * one statement at a time, in the order they come.
 *
 * Plain JavaScript (type-checked from its JSDoc) so that it starts as it is, from the sources
 * and from dist/ alike, in about 50 ms: a worker thread would otherwise have to load a
 * TypeScript loader of its own first (a second or more). It imports no module of the project.
 */
import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { parentPort } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @typedef {import('./sqlite-worker-protocol.js').WorkerRequest} WorkerRequest */
/** @typedef {import('./sqlite-worker-protocol.js').WorkerResponse} WorkerResponse */
/** @typedef {import('./sqlite-worker-protocol.js').WorkerResult} WorkerResult */
/** @typedef {import('./sqlite-worker-protocol.js').WorkerFailure} WorkerFailure */

const port = parentPort;
if (port === null) throw new Error('sqlite-thread runs as a worker thread');

/**
 * Open connections by number, each with the paths it writes (checked before every statement).
 * @type {Map<number, { db: Database.Database, guarded: readonly string[] }>}
 */
const connections = new Map();

port.on('message', (/** @type {WorkerRequest} */ request) => {
  /** @type {WorkerResponse} */
  let response;
  try {
    response = { id: request.id, ok: true, ...handle(request) };
  } catch (error) {
    response = { id: request.id, ok: false, error: failureOf(error) };
  }
  port.postMessage(response);
});

/**
 * @param {WorkerRequest} request
 * @returns {{ result?: WorkerResult }}
 */
function handle(request) {
  switch (request.op) {
    case 'open': {
      const { path } = request;
      // what SQLite writes for a file database: the directory (a new WAL), the file, its WAL and shared memory
      const guarded = path === ':memory:' ? [] : [dirname(path), path, `${path}-wal`, `${path}-shm`];
      connections.set(request.db, { db: open(path, request.busyTimeoutMs), guarded });
      return {};
    }
    case 'run':
      return { result: run(request.db, request.sql, request.parameters) };
    case 'close': {
      const connection = connections.get(request.db);
      connections.delete(request.db);
      // Closing checkpoints the WAL, a write: into files that can no longer be written it is the
      // same SIGBUS. The connection is then dropped unclosed; the WAL stays, and the next open
      // of the file recovers it.
      if (connection === undefined || writable(connection.guarded)) {
        connection?.db.close();
        return {};
      }
      // Dropped unclosed, but better-sqlite3 still closes it when the thread ends (so would the
      // process): the caller must end the process by force while the files cannot be written.
      return { result: { rows: [], abandoned: true } };
    }
  }
}

/**
 * Opens a database file that the server and CLI processes share. WAL lets readers run beside the
 * one writer; `busy_timeout` makes a writer wait for another process's write lock instead of
 * failing at once; `synchronous = NORMAL` is durable enough under WAL (a power cut may lose the
 * last commits, never corrupt the file). SQLite leaves foreign keys off unless asked.
 *
 * @param {string} path
 * @param {number} busyTimeoutMs
 */
function open(path, busyTimeoutMs) {
  /** @type {Database.Database | undefined} */
  let opened;
  try {
    opened = new Database(path, { timeout: busyTimeoutMs });
    // busy_timeout first: switching to WAL needs a lock that another process may hold.
    opened.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    opened.pragma('journal_mode = WAL'); // `:memory:` answers `memory`, which is fine
    opened.pragma('synchronous = NORMAL');
    opened.pragma('foreign_keys = ON');
    return opened;
  } catch (error) {
    opened?.close();
    throw error;
  }
}

/**
 * @param {number} id
 * @param {string} sql
 * @param {readonly unknown[]} parameters
 * @returns {WorkerResult}
 */
function run(id, sql, parameters) {
  const connection = connections.get(id);
  if (connection === undefined) throw new Error('the store is closed');
  checkWritable(connection.guarded);
  const statement = connection.db.prepare(sql);
  if (statement.reader) return { rows: statement.all(...parameters) };
  const { changes, lastInsertRowid } = statement.run(...parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}

/**
 * SQLite writes its WAL index through a shared memory map. Once a file of the data dir cannot be
 * written (made immutable, or its file system read-only), the next write into that map is a
 * SIGBUS: the process dies, or, with the engine's signal handlers installed, the thread hangs in
 * them for good. So each statement first asks the kernel whether the files may still be written
 * and fails cleanly when not (a few microseconds); the store answers again once they may.
 */
/** @param {readonly string[]} guarded */
function checkWritable(guarded) {
  for (const path of guarded) {
    try {
      accessSync(path, constants.W_OK);
    } catch (error) {
      const code = /** @type {NodeJS.ErrnoException} */ (error).code;
      if (code === 'ENOENT') continue; // a WAL not created yet
      throw Object.assign(new Error(`${path} cannot be written (${code})`), { code, notWritable: true });
    }
  }
}

/** @param {readonly string[]} guarded */
function writable(guarded) {
  try {
    checkWritable(guarded);
    return true;
  } catch {
    return false;
  }
}

/**
 * @param {unknown} error
 * @returns {WorkerFailure}
 */
function failureOf(error) {
  const { message, code, notWritable } = /** @type {{ message?: string, code?: unknown, notWritable?: boolean }} */ (error);
  return {
    message: message ?? String(error),
    ...(typeof code === 'string' ? { code } : {}),
    ...(notWritable === true ? { notWritable } : {}),
  };
}
