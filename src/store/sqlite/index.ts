/**
 * store/sqlite: the embedded metadata store on better-sqlite3, one file shared by server and CLI
 * processes. Imports core and the store's shared parts; only composition roots name it.
 */
export { createSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
export { sqliteThreadHoldsExit } from './sqlite-worker-client.js';
