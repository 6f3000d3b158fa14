/**
 * store: metadata repositories (tenants, API keys, indexes, audit outbox, detection rules, event
 * sinks, chat integrations, sync sources, ingest receipts, lookup tables, detection state and
 * outboxes, leases, query records) over Kysely, with the SQLite and PostgreSQL adapters, versioned
 * migrations, and copyStore (SQLite to PostgreSQL).
 * Imports only core.
 *
 * This door carries the contract and what adapters share; the SQLite adapter itself is opened
 * only by composition roots, through src/store/sqlite/index.ts. See docs/store.md.
 */
export type * from './records.js';
export type * from './store.js';
export { allPages, decodePageToken, encodePageToken, type PageKey } from './page-token.js';
export type * from './repository-options.js';
export type * from './sync-source-store.js';
export type * from './compatibility-store.js';
export type * from './ingest-receipt-store.js';
export { copyStore, type CopiedTable, type CopyReport } from './kysely/copy-store.js';
