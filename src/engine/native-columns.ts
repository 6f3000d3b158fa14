/**
 * Column builders for ClickHouse's Native format, in which an insert's rows reach the engine
 * (docs/engine.md, "Writing events"). A Native block is its column count and row count, then each
 * column whole: its name, its type and every row's value. The engine reads a column in one pass
 * instead of decoding each row's 140 values one after another, as it did from RowBinary: the
 * engine's insert of the Windows replay cost 0.65 of the CPU per event (same-run study, rows
 * captured from a real ingest).
 *
 * Values are written little-endian: typed arrays use the platform's order, which is little-endian
 * on every platform Node's prebuilt chDB runs on (checked once below).
 */
import { endianness } from 'node:os';
import { BinaryWriter, binaryString, ChunkedWriter } from './binary-writer.js';

// eslint-disable-next-line no-restricted-syntax -- a startup invariant, not an input error
if (endianness() !== 'LE') throw new Error('the Native encoder writes typed arrays as little-endian; this platform is big-endian');

/** The block's start: how many columns follow, and how many rows each holds. */
export function nativeBlockStart(columns: number, rows: number): Uint8Array {
  const writer = new BinaryWriter(32);
  writer.varUInt(columns);
  writer.varUInt(rows);
  return Uint8Array.from(writer.bytes());
}

/** A column's start: its name and its Native type, each a String. */
export function nativeColumnStart(name: string, type: string): Uint8Array {
  return Buffer.concat([binaryString(name), binaryString(type)]);
}

/** The bytes of a typed array, without copying. */
export function bytesOf(array: BigInt64Array | BigUint64Array | Float64Array | Uint32Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * A Nullable(String) column filled row by row, in row order: a row given no value is null (a 1 in
 * the null map, and an empty string, one 0 byte, among the values, as Native wants for a null).
 */
export class NullableStringColumn {
  private readonly values = new ChunkedWriter(16 * 1024);
  private readonly nulls: Uint8Array;
  private next = 0;

  constructor(private readonly rows: number) {
    this.nulls = new Uint8Array(rows).fill(1);
  }

  /** Gives `row` a value: a String's bytes (its length, then its UTF-8), `[start, end)` of `bytes`. */
  setBytes(row: number, bytes: Uint8Array, start: number, end: number): void {
    // eslint-disable-next-line no-restricted-syntax -- internal invariant: a map gives a path one slot, a row one value per slot
    if (row < this.next) throw new Error(`a Nullable(String) column was given row ${row} after row ${this.next - 1}`);
    this.values.zeros(row - this.next);
    this.values.range(bytes, start, end);
    this.nulls[row] = 0;
    this.next = row + 1;
  }

  /** The column's data: its null map, then its values. */
  chunks(): Uint8Array[] {
    this.values.zeros(this.rows - this.next);
    this.next = this.rows;
    return [this.nulls, ...this.values.chunks()];
  }
}

/** A Nullable(Float64) column: a null map, then a double per row (0 under a null). */
export class NullableFloat64Column {
  private readonly values: Float64Array;
  private readonly valueBytes: Uint8Array;
  private readonly nulls: Uint8Array;

  constructor(rows: number) {
    this.values = new Float64Array(rows);
    this.valueBytes = bytesOf(this.values);
    this.nulls = new Uint8Array(rows).fill(1);
  }

  /** Gives `row` a value: a Float64's 8 bytes (little-endian), from `start` of `bytes`. */
  setBytes(row: number, bytes: Uint8Array, start: number): void {
    const to = row * 8;
    const valueBytes = this.valueBytes;
    for (let i = 0; i < 8; i++) valueBytes[to + i] = bytes[start + i] as number;
    this.nulls[row] = 0;
  }

  chunks(): Uint8Array[] {
    return [this.nulls, bytesOf(this.values)];
  }
}

/**
 * The offsets of an Array or Map column: for each row, the number of elements up to and with
 * it, as UInt64 (written as two 32-bit halves: a batch holds far fewer than 2^32 elements).
 */
export class ArrayOffsets {
  private readonly offsets: Uint32Array;
  private elements = 0;

  constructor(rows: number) {
    this.offsets = new Uint32Array(rows * 2);
  }

  /** Ends `row`, which added `count` elements. */
  end(row: number, count: number): void {
    this.elements += count;
    this.offsets[row * 2] = this.elements;
  }

  get total(): number {
    return this.elements;
  }

  bytes(): Uint8Array {
    return bytesOf(this.offsets);
  }
}
