/**
 * engine: the events engine (ClickHouse). Owns the Engine contract, the schema DDL, the chDB
 * adapter (session pool, settings, cancellation, statistics) and the field catalog.
 * Imports only core.
 */
export type * from './engine.js';
