/**
 * A batch of events as the ingest journal stores it: enough to write the batch again after a
 * restart. The rows keep the bytes ingest encoded (head and fields); their path ids are given
 * meaning by the paths of each writer's `FieldPathIds`, stored with the record.
 *
 * Layout (little-endian): a u32 length and the UTF-8 JSON of `RecordHeader`, a u32 row count,
 * then per row its place (u32), its writer (u32), tsNs (i64), seq (u64), the head's and the
 * fields' lengths (u32 each) and their bytes.
 */
import { FieldPathIds } from '../encode-event-fields.js';
import type { EncodedEventRow, EventBatch, EventPlaceInput, TimeExtent } from '../engine.js';
import { JournalFormatError } from './journal-errors.js';

interface RecordHeader {
  /** [tenant, indexId, sourceType] of the rows. */
  readonly places: [string, string, string][];
  /** The paths of each writer (`FieldPathIds`) of the rows, in id order. */
  readonly writers: string[][];
  /** [tenant, indexId, minTsNs, maxTsNs] (decimal text). */
  readonly extents: [string, string, string, string][];
}

const rowFixedBytes = 4 + 4 + 8 + 8 + 4 + 4;

/** The record of a batch: its bytes, ready to be framed and appended. */
export function encodeJournalRecord(batch: EventBatch): Buffer {
  const places = new Indexer<EventPlaceInput>((place) => `${place.tenant}\u0000${place.indexId}\u0000${place.sourceType}`);
  const writers = new Indexer<FieldPathIds>((paths) => paths);
  let bodyBytes = 4;
  for (const row of batch.rows) {
    places.idOf(row.event);
    writers.idOf(row.paths);
    bodyBytes += rowFixedBytes + row.head.length + row.fields.length;
  }
  const header: RecordHeader = {
    places: places.items.map((place) => [place.tenant, place.indexId, place.sourceType]),
    // A writer's ids only grow, so its paths now name every id its rows use.
    writers: writers.items.map((paths) => [...paths.paths]),
    extents: batch.extents.map((extent) => [extent.tenant, extent.indexId, String(extent.minTsNs), String(extent.maxTsNs)]),
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const out = Buffer.allocUnsafe(4 + headerBytes.length + bodyBytes);
  let at = out.writeUInt32LE(headerBytes.length, 0);
  at += headerBytes.copy(out, at);
  at = out.writeUInt32LE(batch.rows.length, at);
  for (const row of batch.rows) {
    at = out.writeUInt32LE(places.idOf(row.event), at);
    at = out.writeUInt32LE(writers.idOf(row.paths), at);
    at = out.writeBigInt64LE(row.event.tsNs, at);
    at = out.writeBigUInt64LE(row.event.seq, at);
    at = out.writeUInt32LE(row.head.length, at);
    at = out.writeUInt32LE(row.fields.length, at);
    out.set(row.head, at);
    at += row.head.length;
    out.set(row.fields, at);
    at += row.fields.length;
  }
  return out;
}

/** The batch a record holds. Throws JournalFormatError on bytes that are not a whole record. */
export function decodeJournalRecord(bytes: Buffer): EventBatch {
  const reader = new RecordReader(bytes);
  const header = parseHeader(reader.bytes(reader.u32()).toString('utf8'));
  const writers = header.writers.map(pathIdsOf);
  const rowCount = reader.u32();
  const rows: EncodedEventRow[] = [];
  for (let i = 0; i < rowCount; i++) {
    const place = header.places[reader.u32()];
    const paths = writers[reader.u32()];
    if (place === undefined || paths === undefined) throw new JournalFormatError(`row ${i} names a place or writer the record lacks`);
    const [tenant, indexId, sourceType] = place;
    const event: EventPlaceInput = { tenant, indexId, sourceType, tsNs: reader.i64(), seq: reader.u64() };
    const headLength = reader.u32();
    const fieldsLength = reader.u32();
    // Copies, so the segment's buffer is not kept alive by the rows.
    rows.push({ head: Uint8Array.from(reader.bytes(headLength)), fields: Uint8Array.from(reader.bytes(fieldsLength)), paths, event });
  }
  if (!reader.atEnd()) throw new JournalFormatError('a record has bytes after its rows');
  const extents: TimeExtent[] = header.extents.map(([tenant, indexId, min, max]) => ({ tenant, indexId, minTsNs: BigInt(min), maxTsNs: BigInt(max) }));
  return { rows, extents };
}

function parseHeader(text: string): RecordHeader {
  let header: Partial<RecordHeader> | null;
  try {
    header = JSON.parse(text) as Partial<RecordHeader> | null;
  } catch (error) {
    throw new JournalFormatError('a record header is not JSON', { cause: error });
  }
  if (!Array.isArray(header?.places) || !Array.isArray(header.writers) || !Array.isArray(header.extents)) throw new JournalFormatError('a record header lacks its lists');
  return header as RecordHeader;
}

function pathIdsOf(paths: readonly string[]): FieldPathIds {
  const ids = new FieldPathIds();
  for (const path of paths) ids.idOf(path);
  return ids;
}

/** Numbers items by first sight, by a key of each. */
class Indexer<T> {
  readonly items: T[] = [];
  private readonly ids = new Map<unknown, number>();

  constructor(private readonly keyOf: (item: T) => unknown) {}

  idOf(item: T): number {
    const key = this.keyOf(item);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.items.push(item) - 1;
      this.ids.set(key, id);
    }
    return id;
  }
}

/** Reads a record front to back; running past its end is a format error, not a RangeError. */
class RecordReader {
  private at = 0;

  constructor(private readonly buffer: Buffer) {}

  private take(length: number): number {
    const start = this.at;
    if (length < 0 || start + length > this.buffer.length) throw new JournalFormatError('a record ends before its rows do');
    this.at += length;
    return start;
  }

  u32(): number {
    return this.buffer.readUInt32LE(this.take(4));
  }

  i64(): bigint {
    return this.buffer.readBigInt64LE(this.take(8));
  }

  u64(): bigint {
    return this.buffer.readBigUInt64LE(this.take(8));
  }

  bytes(length: number): Buffer {
    const start = this.take(length);
    return this.buffer.subarray(start, start + length);
  }

  atEnd(): boolean {
    return this.at === this.buffer.length;
  }
}
