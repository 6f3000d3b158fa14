/**
 * Encodes a batch of events as one Native block of `eventInsertColumns`, column after column, and
 * counts the batch's field catalog rows while it goes (docs/engine.md, "Writing events" and
 * "Typed slots"). Each event's text columns come from its head and its values from its fields,
 * both encoded as ingest read it; the rest from what the batch gives it: its `seq`, and its field
 * map, which places each value in a slot or a rest map.
 */
import type { EncodedEventRow } from './engine.js';
import { eventInsertColumns } from './encode-event-row.js';
import { catalogRows, enterDay, lineageIn, nullType, stringType, type BatchLineage, type CatalogRow, type LineagePaths, type PathEntry, type RowMap } from './lineage-paths.js';
import { ArrayOffsets, bytesOf, nativeBlockStart, nativeColumnStart, NullableFloat64Column, NullableStringColumn } from './native-columns.js';
import { ChunkedWriter } from './binary-writer.js';
import { EventFieldsReader, type FieldPathIds } from './encode-event-fields.js';
import { numberSlotCount, stringSlotCount } from './schema.js';

// One reader for every row of every batch: it holds nothing once a row is read.
const reader = new EventFieldsReader();

/** A batch as byte chunks to write one after another (one Native block), and the catalog rows it adds. */
export interface EncodedBatch {
  readonly chunks: readonly Uint8Array[];
  readonly catalog: readonly CatalogRow[];
}

/**
 * Each column's start in a block. Native gives the engine plain String where the table keeps
 * LowCardinality(String): the engine builds the dictionaries itself, at no measurable cost
 * over being sent them (docs/engine.md, "Writing events"), and the encoder stays simple.
 */
const columnStarts = new Map(eventInsertColumns.map(([name, type]) => [name, nativeColumnStart(name, type.replace(/LowCardinality\(String\)/g, 'String'))]));

/**
 * Encodes batches for inserts, keeping per lineage what it learnt of each path (its name encoded,
 * its slots), so a path costs one map lookup per row. One per engine; batches may be encoded
 * while earlier ones are still being written, so nothing of a batch is reused by the next.
 */
export class EventBlockEncoder {
  private readonly lineages = new Map<string, LineagePaths>();
  private batch = 0;

  /** Forgets the lineages of an index (its events and maps were deleted). */
  forget(tenant: string, indexId: string): void {
    const prefix = `${tenant}\u0000${indexId}\u0000`;
    for (const key of [...this.lineages.keys()]) if (key.startsWith(prefix)) this.lineages.delete(key);
  }

  /** Encodes rows, each with the map of its (tenant, index, source type): `maps[i]` for `rows[i]`, one object per lineage. */
  encode(encoded: readonly EncodedEventRow[], maps: readonly RowMap[]): EncodedBatch {
    const batch = ++this.batch;
    const rowCount = encoded.length;
    const head = new HeadColumns(rowCount);
    const fields = new FieldColumns(rowCount);
    const inBatch = new Map<RowMap, BatchLineage>();
    let last: BatchLineage | null = null;
    // The lineage's entry of each path id of the rows' writer, resolved on the id's first row.
    let lastPaths: FieldPathIds | null = null;
    let lastLineage: BatchLineage | null = null;
    let entries: (PathEntry | undefined)[] = [];
    for (let r = 0; r < rowCount; r++) {
      const row = encoded[r] as EncodedEventRow;
      const event = row.event;
      const map = maps[r] as RowMap;
      head.add(r, row, map.mapId);
      let lineage: BatchLineage = last !== null && last.map === map ? last : lineageIn(inBatch, this.lineages, map);
      last = lineage;
      const tsNs = event.tsNs;
      if (tsNs < lineage.dayStart || tsNs >= lineage.dayEnd) lineage = enterDay(lineage, tsNs);
      const dayBase = lineage.day * 4;
      const touched = lineage.touched;
      const paths = lineage.paths;
      let pathCount = 0;
      let restStrings = 0;
      let restNumbers = 0;
      if (row.paths !== lastPaths || lineage !== lastLineage) {
        lastPaths = row.paths;
        lastLineage = lineage;
        entries = entriesOf(lineage, row.paths);
      }
      const bytes = row.fields;
      reader.reset(bytes);
      const field = reader.field;
      while (reader.next()) {
        const entry = (entries[field.id] ??= paths.entry(row.paths.paths[field.id] ?? ''));
        fields.paths.raw(entry.key);
        pathCount++;
        const type = field.type;
        if (type === stringType) {
          if (entry.stringSlot >= 0) fields.stringSlot(entry.stringSlot).setBytes(r, bytes, field.start, field.end);
          else {
            fields.restStringKeys.raw(entry.key);
            fields.restStringValues.range(bytes, field.start, field.end);
            restStrings++;
          }
        } else if (type !== nullType) {
          if (entry.numberSlot >= 0) fields.numberSlot(entry.numberSlot).setBytes(r, bytes, field.start);
          else {
            fields.restNumberKeys.raw(entry.key);
            fields.restNumberValues.range(bytes, field.start, field.end);
            restNumbers++;
          }
        }
        entry.count(batch, touched, dayBase + type);
      }
      fields.endRow(r, pathCount, restStrings, restNumbers);
    }
    const data = new Map([...head.columns(), ...fields.columns()]);
    const chunks: Uint8Array[] = [nativeBlockStart(eventInsertColumns.length, rowCount)];
    for (const [name] of eventInsertColumns) chunks.push(columnStarts.get(name) as Uint8Array, ...(data.get(name) as Uint8Array[]));
    return { chunks, catalog: catalogRows(inBatch.values()) };
  }
}

/** The lineage's entry of each path id of one writer of the batch's rows, filled as ids are met. */
function entriesOf(lineage: BatchLineage, paths: FieldPathIds): (PathEntry | undefined)[] {
  let entries = lineage.entriesByWriter.get(paths);
  if (entries === undefined) lineage.entriesByWriter.set(paths, (entries = []));
  return entries;
}

/**
 * The columns up to `field_map`: each event's lineage and time from its fields, its text
 * columns from its head (the strings `ts_field`, `raw` and `search_text`, already as Native's
 * String values), taken as views, not copies.
 */
class HeadColumns {
  private readonly tenant = new ChunkedWriter(64 * 1024);
  private readonly indexId = new ChunkedWriter(64 * 1024);
  private readonly sourceType = new ChunkedWriter(64 * 1024);
  private readonly tsField = new ChunkedWriter(64 * 1024);
  private readonly ts: BigInt64Array;
  private readonly seq: BigUint64Array;
  private readonly mapIds: BigUint64Array;
  private readonly raw: Uint8Array[];
  private readonly searchText: Uint8Array[];

  constructor(rows: number) {
    this.ts = new BigInt64Array(rows);
    this.seq = new BigUint64Array(rows);
    this.mapIds = new BigUint64Array(rows);
    this.raw = new Array<Uint8Array>(rows);
    this.searchText = new Array<Uint8Array>(rows);
  }

  add(r: number, { head, event }: EncodedEventRow, mapId: bigint): void {
    this.tenant.string(event.tenant);
    this.indexId.string(event.indexId);
    this.sourceType.string(event.sourceType);
    this.ts[r] = event.tsNs;
    this.seq[r] = event.seq;
    this.mapIds[r] = mapId;
    const rawStart = stringEnd(head, 0);
    const textStart = stringEnd(head, rawStart);
    this.tsField.raw(head.subarray(0, rawStart));
    this.raw[r] = head.subarray(rawStart, textStart);
    this.searchText[r] = head.subarray(textStart);
  }

  columns(): [string, Uint8Array[]][] {
    return [
      ['tenant', this.tenant.chunks()],
      ['idx', this.indexId.chunks()],
      ['ts', [bytesOf(this.ts)]],
      ['source_type', this.sourceType.chunks()],
      ['ts_field', this.tsField.chunks()],
      ['raw', this.raw],
      ['search_text', this.searchText],
      ['seq', [bytesOf(this.seq)]],
      ['field_map', [bytesOf(this.mapIds)]],
    ];
  }
}

/**
 * Where the string at `start` of `bytes` ends (a LEB128 length, then the bytes). A length running past the end (bytes
 * that are not a head) ends at the end: the block is then one the engine cannot read, and refuses.
 */
function stringEnd(bytes: Uint8Array, start: number): number {
  let length = 0;
  let scale = 1;
  let at = start;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined) return bytes.length;
    length += (byte & 0x7f) * scale;
    if (byte < 0x80) break;
    scale *= 128;
  }
  return Math.min(at + length, bytes.length);
}

/** The field layout's columns (schema v10): each row's paths, the rest maps, the typed slots. */
class FieldColumns {
  readonly paths = new ChunkedWriter(256 * 1024);
  readonly restStringKeys = new ChunkedWriter(64 * 1024);
  readonly restStringValues = new ChunkedWriter(64 * 1024);
  readonly restNumberKeys = new ChunkedWriter(16 * 1024);
  readonly restNumberValues = new ChunkedWriter(16 * 1024);
  private readonly pathOffsets: ArrayOffsets;
  private readonly restStringOffsets: ArrayOffsets;
  private readonly restNumberOffsets: ArrayOffsets;
  // Made on a slot's first value in the batch: most slots of most batches hold none.
  private readonly strings = new Array<NullableStringColumn | undefined>(stringSlotCount);
  private readonly numbers = new Array<NullableFloat64Column | undefined>(numberSlotCount);

  constructor(private readonly rows: number) {
    this.pathOffsets = new ArrayOffsets(rows);
    this.restStringOffsets = new ArrayOffsets(rows);
    this.restNumberOffsets = new ArrayOffsets(rows);
  }

  stringSlot(slot: number): NullableStringColumn {
    return (this.strings[slot] ??= new NullableStringColumn(this.rows));
  }

  numberSlot(slot: number): NullableFloat64Column {
    return (this.numbers[slot] ??= new NullableFloat64Column(this.rows));
  }

  endRow(r: number, paths: number, restStrings: number, restNumbers: number): void {
    this.pathOffsets.end(r, paths);
    this.restStringOffsets.end(r, restStrings);
    this.restNumberOffsets.end(r, restNumbers);
  }

  columns(): [string, Uint8Array[]][] {
    // A Map is an Array of (key, value) tuples: offsets, every key, then every value (Nullable:
    // its null map first; rest map values are never null).
    const restStrings = this.restStringOffsets.total;
    const restNumbers = this.restNumberOffsets.total;
    const out: [string, Uint8Array[]][] = [
      ['field_paths', [this.pathOffsets.bytes(), ...this.paths.chunks()]],
      ['rest_s', [this.restStringOffsets.bytes(), ...this.restStringKeys.chunks(), new Uint8Array(restStrings), ...this.restStringValues.chunks()]],
      ['rest_n', [this.restNumberOffsets.bytes(), ...this.restNumberKeys.chunks(), new Uint8Array(restNumbers), ...this.restNumberValues.chunks()]],
    ];
    // An empty slot: every row null, each an empty string (one 0 byte) or a 0 double.
    const allNull = new Uint8Array(this.rows).fill(1);
    const emptyStrings = new Uint8Array(this.rows);
    const zeroDoubles = new Uint8Array(this.rows * 8);
    for (let slot = 0; slot < stringSlotCount; slot++) out.push([`s${slot}`, this.strings[slot]?.chunks() ?? [allNull, emptyStrings]]);
    for (let slot = 0; slot < numberSlotCount; slot++) out.push([`n${slot}`, this.numbers[slot]?.chunks() ?? [allNull, zeroDoubles]]);
    return out;
  }
}
