/**
 * store/postgres: the scale-out metadata store on PostgreSQL (node-postgres pool), shared by
 * every Vigil server of a deployment. Composition roots (src/runtime.ts, src/bin.ts) import it
 * from here; everything else sees only the Store interface. Imports only core and the store's
 * shared parts.
 */
export { createPostgresStore, describeUrl, type PostgresStoreOptions } from './postgres-store.js';
