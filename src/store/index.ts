/**
 * store: the metadata repositories over Kysely (tenants, keys, indexes, rules, sinks, alerts and
 * outboxes, leases, ...), migrations, the contract suite and copyStore; the SQLite and PostgreSQL
 * adapters are opened by composition roots from store/sqlite and store/postgres. Imports core and
 * domain (the rule, sink and alert nouns it stores).
 */
export type * from './records.js';
export type * from './store.js';
export { allPages, decodePageToken, encodePageToken, type PageKey } from './page-token.js';
export type * from './repository-options.js';
export type * from './sync-source-store.js';
export type * from './compatibility-store.js';
export type * from './ingest-receipt-store.js';
export { copyStore, type CopiedTable, type CopyReport } from './kysely/copy-store.js';
