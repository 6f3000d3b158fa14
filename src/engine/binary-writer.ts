/**
 * Writes values as ClickHouse's binary formats hold them (LEB128 lengths, little-endian numbers)
 * into one growing buffer: an event's head, and the columns of a Native block (docs/engine.md,
 * "Writing events").
 *
 * Most values of an event are short ASCII strings, for which `Buffer.write`'s argument checks
 * cost more than the copy (a CPU profile of a Windows batch: 40 % of encoding went to them), so
 * short strings are copied by a loop and longer ones go to the buffer's own `utf8Write`.
 */
export class BinaryWriter {
  protected buffer: Utf8Buffer;
  protected offset = 0;

  constructor(initialBytes = 1 << 20) {
    this.buffer = Buffer.allocUnsafe(initialBytes) as Utf8Buffer;
  }

  /** Starts over at the beginning of the buffer, which is kept. */
  reset(): void {
    this.offset = 0;
  }

  /** The bytes written, without copying (valid until the next write). */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.offset);
  }

  /** A Float64, little-endian. */
  float64(value: number): void {
    this.reserve(8);
    this.buffer.writeDoubleLE(value, this.offset);
    this.offset += 8;
  }

  /** `count` zero bytes: in Native, that many empty strings. */
  zeros(count: number): void {
    if (count <= 0) return;
    this.reserve(count);
    this.buffer.fill(0, this.offset, this.offset + count);
    this.offset += count;
  }

  /** An unsigned LEB128 length or count. */
  varUInt(value: number): void {
    this.reserve(10);
    let v = value;
    while (v >= 0x80) {
      this.buffer[this.offset++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buffer[this.offset++] = v;
  }

  /** Bytes already encoded (a `binaryString`), copied as they are. */
  raw(bytes: Uint8Array): void {
    this.range(bytes, 0, bytes.length);
  }

  /** Bytes `[start, end)` of `bytes`, already encoded (an event's field values), copied as they are. */
  range(bytes: Uint8Array, start: number, end: number): void {
    const length = end - start;
    this.reserve(length);
    const buffer = this.buffer;
    const to = this.offset;
    if (length <= 32) for (let i = 0; i < length; i++) buffer[to + i] = bytes[start + i] as number;
    else buffer.set(new Uint8Array(bytes.buffer, bytes.byteOffset + start, length), to); // not `subarray`: a Buffer's makes a Buffer, at some cost
    this.offset = to + length;
  }

  /**
   * A String: its UTF-8 length, then the bytes. The text is encoded straight into the buffer
   * after a length field sized for its worst case (3 bytes per UTF-16 unit); a shorter length is
   * written with padding continuation bytes, which LEB128 readers accept, so the text is not
   * measured first. Answers the number of bytes the text took, without its length.
   */
  string(text: string): number {
    const units = text.length;
    if (units < 43) {
      // At most 126 bytes: a one-byte length.
      this.reserve(1 + units * 3);
      const buffer = this.buffer;
      const start = this.offset + 1;
      let i = 0;
      for (; i < units; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80) break;
        buffer[start + i] = c;
      }
      const written = i === units ? units : buffer.utf8Write(text, start);
      buffer[this.offset] = written;
      this.offset = start + written;
      return written;
    }
    const maxBytes = units * 3;
    const width = maxBytes < 1 << 14 ? 2 : maxBytes < 1 << 21 ? 3 : maxBytes < 1 << 28 ? 4 : 5;
    this.reserve(width + maxBytes);
    const written = this.buffer.utf8Write(text, this.offset + width);
    let v = written;
    for (let i = 0; i < width - 1; i++) {
      this.buffer[this.offset + i] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buffer[this.offset + width - 1] = v;
    this.offset += width + written;
    return written;
  }

  /** One byte. */
  byte(value: number): void {
    this.reserve(1);
    this.buffer[this.offset++] = value;
  }

  /** ASCII text's bytes, without a length (a number's text inside a longer String). */
  ascii(text: string): void {
    const length = text.length;
    this.reserve(length);
    const buffer = this.buffer;
    const to = this.offset;
    for (let i = 0; i < length; i++) buffer[to + i] = text.charCodeAt(i);
    this.offset = to + length;
  }

  private reserve(bytes: number): void {
    if (this.offset + bytes > this.buffer.length) this.grow(bytes);
  }

  /** Makes room for `bytes` more at `offset`: here a buffer twice as large, holding what was written. */
  protected grow(bytes: number): void {
    let size = this.buffer.length * 2;
    while (size < this.offset + bytes) size *= 2;
    const next = Buffer.allocUnsafe(size) as Utf8Buffer;
    this.buffer.copy(next, 0, 0, this.offset);
    this.buffer = next;
  }
}

/**
 * A writer of a column's data, which a block sends as chunks: when full it starts a new buffer
 * instead of copying what it holds into a larger one (the copies of the slots' growing buffers
 * took 0.4 s of a Windows ingest's main thread). A value is never split between buffers.
 */
export class ChunkedWriter extends BinaryWriter {
  private readonly full: Uint8Array[] = [];

  /** Everything written, in order, without copying. */
  chunks(): Uint8Array[] {
    return [...this.full, this.bytes()];
  }

  protected override grow(bytes: number): void {
    if (this.offset > 0) this.full.push(this.bytes());
    this.buffer = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, bytes)) as Utf8Buffer;
    this.offset = 0;
  }
}

/** A String's bytes (its length, then its UTF-8), for text written many times (a path). */
export function binaryString(text: string): Uint8Array {
  const writer = new BinaryWriter(16 + text.length * 3);
  writer.string(text);
  return Uint8Array.from(writer.bytes());
}

/**
 * Node's Buffer has an undocumented `utf8Write(text, offset)` (what `write` calls after checking
 * its arguments), present in every Node release this project supports.
 */
export interface Utf8Buffer extends Buffer {
  utf8Write(text: string, offset: number): number;
}
