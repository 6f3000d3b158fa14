/**
 * store/postgres: the scale-out metadata store on PostgreSQL (node-postgres pool), shared by every
 * server of a deployment. Imports core and the store's shared parts; composition roots name it.
 */
export { createPostgresStore, describeUrl, type PostgresStoreOptions } from './postgres-store.js';
