/**
 * store: metadata repositories (tenants, API keys, indexes, audit outbox) over Kysely, with the
 * SQLite adapter and versioned migrations. Imports only core.
 */
export type * from './records.js';
export type * from './store.js';
