/**
 * engine: the events engine (ClickHouse). Owns the Engine contract, the schema DDL, the chDB
 * adapter (session pool, settings, cancellation, statistics) and the field catalog.
 * Imports only core.
 *
 * The adapters are not exported here: composition roots import them from `engine/chdb` and
 * `engine/clickhouse`, so that no other module can name a concrete engine.
 */
export type * from './engine.js';
export { catalogDaysExact } from './catalog-days.js';
export { timeExtentsOf } from './time-extents.js';
export {
  createSchemaStatements,
  createVersionTableStatement,
  schemaMigrations,
  schemaVersion,
  type SchemaMigration,
  type SchemaOptions,
} from './schema.js';
export { isRowDataError } from './to-engine-error.js';
