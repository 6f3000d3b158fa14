import { createInflateRaw, type InflateRaw } from 'node:zlib';
import { crc32 } from '../core/index.js';

/** Compressed bytes inflated per step; at gzip's worst ratio (~1:1000) a step yields ~16 MB. */
const inflateInputBytes = 16 * 1024;
/** Size of the inflated chunks handed on; large chunks keep per-chunk overhead low. */
const inflateChunkBytes = 256 * 1024;

/** A damaged gzip stream, coded like zlib's own errors (`Z_DATA_ERROR`, `Z_BUF_ERROR`). */
export class GzipDataError extends Error {
  constructor(
    message: string,
    readonly code = 'Z_DATA_ERROR',
  ) {
    super(message);
  }
}

type Header = { readonly ok: true; readonly length: number } | { readonly ok: false; readonly error: string } | null;

/**
 * Inflates a gzip stream of one or more members, like `gunzip`. The members are framed here and
 * only their deflate bodies go to zlib (inflate-raw, on the thread pool), because Node's own
 * gunzip drops the output of the whole step in which it fails: garbage after the last member (or
 * a damaged next header) cost the end of the member before it, often the whole file. Here every
 * byte of every good member is yielded before the `GzipDataError` for the damage is thrown. Zero
 * bytes after a member are padding, as gunzip allows. The trailer's CRC-32 and length are checked.
 */
export async function* inflateGzip(compressed: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0); // bytes not yet given to a member's header, body or trailer
  let state: 'header' | 'body' | 'trailer' | 'padding' = 'header';
  let members = 0;
  let member: MemberInflater | null = null;
  let crc = 0;
  let size = 0;
  const check = (bytes: Buffer): Buffer => {
    crc = crc32(bytes, crc);
    size = (size + bytes.length) >>> 0;
    return bytes;
  };
  for await (const chunk of compressed) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    pending = pending.length === 0 ? bytes : Buffer.concat([pending, bytes]);
    while (pending.length > 0) {
      if (state === 'padding') {
        if (pending[0] !== 0) state = 'header';
        else {
          pending = pending.subarray(1);
          continue;
        }
      }
      if (state === 'header') {
        const header = parseHeader(pending);
        if (header === null) break; // wait for more bytes
        if (!header.ok) throw new GzipDataError(members === 0 ? header.error : `the bytes after gzip member ${members} are not gzip (${header.error})`);
        pending = pending.subarray(header.length);
        member = new MemberInflater();
        crc = 0;
        size = 0;
        state = 'body';
        continue;
      }
      if (state === 'body') {
        const piece = pending.subarray(0, inflateInputBytes);
        const left = await (member as MemberInflater).write(piece);
        for (const bytes of (member as MemberInflater).take()) yield check(bytes);
        pending = pending.subarray(piece.length - left);
        if ((member as MemberInflater).ended) state = 'trailer';
        continue;
      }
      // trailer: CRC-32 and length modulo 2^32 of the member's output, little-endian
      if (pending.length < 8) break;
      if (pending.readUInt32LE(0) !== crc >>> 0) throw new GzipDataError('incorrect data check');
      if (pending.readUInt32LE(4) !== size) throw new GzipDataError('incorrect length check');
      pending = pending.subarray(8);
      (member as MemberInflater).close();
      member = null;
      members++;
      state = 'padding';
    }
  }
  if (state === 'body') {
    // the input ended inside a body: zlib reports the missing end (`unexpected end of file`)
    await (member as MemberInflater).finish();
    for (const bytes of (member as MemberInflater).take()) yield check(bytes);
  }
  if (state === 'padding') return;
  if (state === 'header' && members > 0 && pending.length === 0) return;
  throw new GzipDataError('unexpected end of file', 'Z_BUF_ERROR');
}

/** One member's deflate body through zlib; knows where the body ended within what it was given. */
class MemberInflater {
  ended = false;
  private readonly inflater: InflateRaw = createInflateRaw({ chunkSize: inflateChunkBytes });
  private readonly output: Buffer[] = [];
  private failure: Error | null = null;
  private fed = 0;
  private readonly closed: Promise<void>;

  constructor() {
    this.inflater.on('data', (bytes: Buffer) => this.output.push(bytes));
    this.inflater.on('error', (error: Error) => {
      this.failure ??= error;
    });
    this.closed = new Promise<void>((resolve) => this.inflater.once('close', resolve));
  }

  /** Inflates `piece`; answers how many of its bytes follow the end of the body (0 if none). */
  async write(piece: Buffer): Promise<number> {
    this.fed += piece.length;
    // a write that fails never calls back: the stream closes instead
    await Promise.race([this.closed, new Promise<void>((resolve) => this.inflater.write(piece, () => resolve()))]);
    if (this.failure !== null) throw this.failure;
    // zlib consumes input only up to the end of the deflate stream; bytesWritten counts what it consumed
    const left = this.fed - this.inflater.bytesWritten;
    if (left > 0) this.ended = true;
    return left;
  }

  /** Ends the input inside the body: zlib fails with the reason, after the output it has. */
  async finish(): Promise<void> {
    this.inflater.end();
    await this.closed;
    if (this.failure !== null) throw this.failure;
  }

  take(): Buffer[] {
    return this.output.splice(0, this.output.length);
  }

  close(): void {
    this.inflater.destroy();
  }
}

/**
 * The length of a member header at the start of `bytes` (RFC 1952: magic, method 8, flags,
 * mtime, xfl, os, then the optional extra field, name, comment and header CRC), null if more
 * bytes are needed, or what is wrong with it, in zlib's words.
 */
function parseHeader(bytes: Buffer): Header {
  if (bytes.length >= 1 && bytes[0] !== 0x1f) return { ok: false, error: 'incorrect header check' };
  if (bytes.length >= 2 && bytes[1] !== 0x8b) return { ok: false, error: 'incorrect header check' };
  if (bytes.length >= 3 && bytes[2] !== 8) return { ok: false, error: 'unknown compression method' };
  if (bytes.length < 10) return null;
  const flags = bytes[3] as number;
  if ((flags & 0xe0) !== 0) return { ok: false, error: 'unknown header flags set' };
  let at = 10;
  if (flags & 4) {
    if (bytes.length < at + 2) return null;
    at += 2 + bytes.readUInt16LE(at);
  }
  for (const flag of [8, 16]) {
    if (!(flags & flag)) continue;
    const end = bytes.indexOf(0, at);
    if (end < 0) return null;
    at = end + 1;
  }
  if (flags & 2) at += 2;
  return bytes.length < at ? null : { ok: true, length: at };
}
