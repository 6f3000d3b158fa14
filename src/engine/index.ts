/**
 * engine: the events engine (ClickHouse) — the Engine contract, schema DDL and field catalog;
 * the adapters live in engine/chdb and engine/clickhouse, named only by composition roots.
 * Imports only core.
 */
export type * from './engine.js';
export { adhocWorkload } from './engine.js';
export { catalogDaysExact } from './catalog-days.js';
export { timeExtentsOf } from './time-extents.js';
export { createSchemaStatements, createVersionTableStatement, schemaVersion, type SchemaOptions } from './schema.js';
export { schemaMigrations, type SchemaMigration } from './schema-migrations.js';
export { isRowDataError } from './to-engine-error.js';
export { encodeEventHead, encodeEventRow } from './encode-event-row.js';
export { encodeEventFields, EventFieldsReader, FieldPathIds } from './encode-event-fields.js';
export { SlabEventEncoder } from './encode-event.js';
export { numberText } from './number-text.js';
