import Database from 'better-sqlite3';
import { StoreError, messageOf } from '../../core/index.js';

/**
 * Opens a better-sqlite3 database for a file that the server and CLI processes share. WAL lets
 * readers run beside the one writer; `busy_timeout` makes a writer wait for another process's
 * write lock instead of failing at once; `synchronous = NORMAL` is durable enough under WAL (a
 * power cut may lose the last commits, never corrupt the file). SQLite leaves foreign keys off
 * unless asked, per connection. StoreError when the file cannot be opened or is not a database.
 */
export function openSqliteDatabase(path: string, busyTimeoutMs: number): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { timeout: busyTimeoutMs });
    // busy_timeout first: switching to WAL needs a lock that another process may hold.
    db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    db.pragma('journal_mode = WAL'); // `:memory:` answers `memory`, which is fine
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    return db;
  } catch (cause) {
    db?.close();
    // The cause's words (`directory does not exist`, `file is not a database`) are the useful part.
    throw new StoreError(`cannot open sqlite store ${path}: ${messageOf(cause)}`, { cause });
  }
}
