import type { EncodedEventRow, EventFieldsInput, EventHeadInput, EventRowInput } from './engine.js';
import { RowBinaryWriter } from './row-binary-writer.js';
import { RowSlabs } from './row-slabs.js';
import { fieldLayoutColumns } from './schema.js';

/**
 * The columns of `logs` an insert writes, in order, with their exact table types: the chDB
 * adapter names them as the structure of the `file()` it inserts from, where a type that differs
 * from the table's (a plain `JSON` for `JSON(max_dynamic_paths=256)`) makes the engine convert
 * every row, at three times the cost (docs/engine.md, "Writing events"). The engine contract
 * checks them against the table. `encodeEventHead` writes the columns up to `search_text`, what
 * the event's own text gives; `encodeFieldColumns` the ones after, which its batch gives: `seq`
 * and the field layout (schema v10: no JSON column). So `seq` comes later here than in the
 * table: an insert names its columns and the types match, so no row is converted (the insert
 * that moved it cost 0.88x the CPU per event before, where a converting structure cost 3x).
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

/** `tenant LowCardinality(String), …`: the structure of encoded rows, for `file()`. */
export const eventInsertStructure = eventInsertColumns.map(([name, type]) => `${name} ${type}`).join(', ');

// One writer reused for every row: each row's bytes are copied out, so the writer's buffer grows
// once to the largest row instead of being allocated per row.
const writer = new RowBinaryWriter(64 * 1024);

const slabs = new RowSlabs();

/**
 * Serializes the head of one event's RowBinary row of `eventInsertColumns`: the columns up to
 * `search_text`, which need neither the batch nor a field map, so ingest encodes them as it reads
 * each event. The engine reads RowBinary without parsing text: the CLI ingest of the Windows
 * replay cost 0.62 of the CPU per event of the JSONEachRow lines it replaced (docs/engine.md,
 * "Writing events").
 *
 * - `ts` is DateTime64(9)'s Int64 of nanoseconds, exact (pre-1970 too).
 * - `raw` is the event's text as is; the engine stores the bytes verbatim.
 */
export function encodeEventHead(row: EventHeadInput): Uint8Array {
  writer.reset();
  writer.string(row.tenant);
  writer.string(row.indexId);
  writer.int64(row.tsNs);
  writer.string(row.sourceType);
  writer.string(row.tsField);
  writer.string(row.rawJson);
  writer.string(row.searchText);
  return slabs.copy(writer.bytes()); // a copy: the writer's buffer is the next row's
}

/** One whole event for `insertEvents`: its head, and only what the insert writes after it (not its text). */
export function encodeEventRow(row: EventRowInput): EncodedEventRow {
  return { head: encodeEventHead(row), event: eventFieldsOf(row) };
}

/** The fields an insert writes after an event's head. */
function eventFieldsOf(row: EventFieldsInput): EventFieldsInput {
  const { tenant, indexId, sourceType, tsNs, seq, attrs, nullPaths } = row;
  return { tenant, indexId, sourceType, tsNs, seq, attrs, nullPaths };
}

/** Insert settings that encoded rows need, shared by every adapter. */
export const eventInsertSettings: Readonly<Record<string, string | number>> = {
  // Weekly partitions: a backfill of old events may touch many weeks in one batch.
  max_partitions_per_insert_block: 10_000,
};
