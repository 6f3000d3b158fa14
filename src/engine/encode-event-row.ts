import type { EncodedEventRow, EventHeadInput, EventRowInput } from './engine.js';
import { encodeEventFields, FieldPathIds } from './encode-event-fields.js';
import { headSlabs } from './row-slabs.js';
import { fieldLayoutColumns } from './schema.js';

/**
 * The columns of `logs` an insert writes, in order, with their table types: the engine contract
 * checks them against the table. An insert sends them as one Native block (`EventBlockEncoder`),
 * in which the LowCardinality columns go as plain String. `encodeEventHead` writes the text
 * columns an event's own text gives (`ts_field`, `raw`, `search_text`) as ingest reads it; the
 * block takes the rest from the batch: each event's lineage, time and `seq`, and the field
 * layout (schema v10: no JSON column), which needs the batch's field maps. The insert names its
 * columns, so their order here need not be the table's.
 */
export const eventInsertColumns = [
  ['tenant', 'LowCardinality(String)'],
  ['idx', 'LowCardinality(String)'],
  ['ts', "DateTime64(9, 'UTC')"],
  ['source_type', 'LowCardinality(String)'],
  ['ts_field', 'LowCardinality(String)'],
  ['raw', 'String'],
  ['search_text', 'String'],
  ['seq', 'UInt64'],
  ...fieldLayoutColumns,
] as const;

/** `(tenant, idx, …)`: the column list of an insert of encoded rows. */
export const eventInsertColumnList = `(${eventInsertColumns.map(([name]) => name).join(', ')})`;

/**
 * Encodes the head of one event: its text columns `ts_field`, `raw` and `search_text`, each as a
 * Native String column holds a value (a LEB128 length, then the UTF-8 bytes). They
 * need neither the batch nor a field map, so ingest encodes them as it reads each event and a
 * batch keeps bytes outside the JavaScript heap, not each event's text (docs/engine.md, "Writing
 * events"). `raw` is the event's text as is; the engine stores the bytes verbatim.
 */
export function encodeEventHead(row: EventHeadInput): Uint8Array {
  headSlabs.startRow();
  headSlabs.string(row.tsField);
  headSlabs.string(row.rawJson);
  headSlabs.string(row.searchText);
  return headSlabs.endRow();
}

/**
 * One whole event for `insertEvents`: its head, its fields with ids from `paths`, and where it
 * goes. Ingest encodes the parts as it reads each event; this is for writers of whole events
 * (fixtures, benchmarks).
 */
export function encodeEventRow(row: EventRowInput, paths = new FieldPathIds()): EncodedEventRow {
  const { tenant, indexId, sourceType, tsNs, seq } = row;
  return { head: encodeEventHead(row), fields: encodeEventFields(row, paths), paths, event: { tenant, indexId, sourceType, tsNs, seq } };
}

/** Insert settings that encoded rows need, shared by every adapter. */
export const eventInsertSettings: Readonly<Record<string, string | number>> = {
  // Weekly partitions: a backfill of old events may touch many weeks in one batch.
  max_partitions_per_insert_block: 10_000,
};
