/**
 * store/sqlite: the embedded metadata store on better-sqlite3, for one file shared by the server
 * and CLI processes. Composition roots (src/server.ts, src/bin.ts) import it from here; everything
 * else sees only the Store interface. Imports only core and the store's shared parts.
 */
export { createSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
export { sqliteThreadHoldsExit } from './sqlite-worker-client.js';
