/**
 * The journal's files: numbered segments of framed records in one owner-only directory. A frame
 * is a u32 payload length, the payload's CRC-32 (both little-endian) and the payload, so a
 * record cut short by a crash, or damaged since, is known and nothing after it is trusted.
 */
import { mkdirSync, readdirSync, readFileSync, unlinkSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { EngineError } from '../../core/index.js';

const frameHeaderBytes = 8;
const segmentPattern = /^(\d{12})\.journal$/;

/** The frame of a record: its header, then the record itself (written together, with writev). */
export function frameOf(payload: Buffer): Buffer[] {
  const header = Buffer.allocUnsafe(frameHeaderBytes);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return [header, payload];
}

/** Why reading a segment stopped early: its end was cut short (by a stop while appending), or bytes changed. */
export interface SegmentDamage {
  readonly kind: 'cut' | 'checksum';
  readonly message: string;
}

/** The whole records of a segment's bytes, in order, and why reading stopped early, if it did. */
export function readFrames(bytes: Buffer): { records: Buffer[]; damage: SegmentDamage | null } {
  const records: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + frameHeaderBytes > bytes.length) return { records, damage: { kind: 'cut', message: `a record header is cut short at byte ${at}` } };
    const length = bytes.readUInt32LE(at);
    const end = at + frameHeaderBytes + length;
    if (end > bytes.length) return { records, damage: { kind: 'cut', message: `the record at byte ${at} is cut short` } };
    const payload = bytes.subarray(at + frameHeaderBytes, end);
    if (crc32(payload) !== bytes.readUInt32LE(at + 4)) return { records, damage: { kind: 'checksum', message: `the record at byte ${at} fails its checksum` } };
    records.push(payload);
    at = end;
  }
  return { records, damage: null };
}

/** A segment file left by an earlier run. */
export interface StoredSegment {
  readonly number: number;
  readonly path: string;
  readonly records: Buffer[];
  readonly damage: SegmentDamage | null;
}

/** The directory of segments: created owner-only, read in order at start. */
export class SegmentDirectory {
  constructor(readonly path: string) {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  }

  /** The segments left by an earlier run, oldest first, each read when it is reached (so one at a time is in memory). */
  *stored(): Generator<StoredSegment> {
    for (const { number, path } of this.numbered()) yield { number, path, ...readFrames(readFileSync(path)) };
  }

  /** The number after every segment's here. */
  nextNumber(): number {
    return (this.numbered().at(-1)?.number ?? 0) + 1;
  }

  private numbered(): { number: number; path: string }[] {
    return readdirSync(this.path)
      .flatMap((name) => {
        const match = segmentPattern.exec(name);
        return match === null ? [] : [{ number: Number(match[1]), path: join(this.path, name) }];
      })
      .sort((a, b) => a.number - b.number);
  }

  pathOf(number: number): string {
    return join(this.path, `${String(number).padStart(12, '0')}.journal`);
  }

  remove(path: string): void {
    unlinkSync(path);
  }

  /** Makes new and removed entries of the directory durable. */
  sync(): void {
    const fd = openSync(this.path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/** Creates the file and makes its directory entry durable, so a synced append cannot vanish with it. */
async function openDurably(path: string, directory: string): Promise<FileHandle> {
  const handle = await open(path, 'a', 0o600);
  try {
    const dir = await open(directory, 'r');
    await dir.sync().finally(() => dir.close());
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * One segment being appended to. Appends are written in order; each waits for an fsync that
 * began after its write, and one fsync serves every append written before it began, so
 * concurrent requests share the disk flush.
 */
export class SegmentFile {
  private readonly handle: Promise<FileHandle>;
  private tail: Promise<unknown> = Promise.resolve();
  private written = 0;
  private synced = 0;
  private syncing: Promise<void> | null = null;

  constructor(
    readonly path: string,
    directory: string,
  ) {
    this.handle = openDurably(path, directory);
    // An open that fails is reported by the append that awaits it.
    this.handle.catch(() => {});
  }

  /** Resolves once the frame is on disk. A failure leaves the file's end unknown: append no more. */
  async append(frame: readonly Buffer[]): Promise<void> {
    const write = this.tail.then(async () => {
      const expected = frame.reduce((sum, part) => sum + part.length, 0);
      const { bytesWritten } = await (await this.handle).writev(frame as Buffer[]);
      // A short write (a disk filling up) leaves a torn record: the caller starts a new segment.
      if (bytesWritten !== expected) throw new EngineError(`the ingest journal wrote ${bytesWritten} of a record's ${expected} bytes`);
      return ++this.written;
    });
    this.tail = write.catch(() => {});
    const mine = await write;
    while (this.synced < mine) {
      this.syncing ??= this.syncWritten();
      await this.syncing;
    }
  }

  private async syncWritten(): Promise<void> {
    const through = this.written;
    try {
      await (await this.handle).datasync();
      this.synced = Math.max(this.synced, through);
    } finally {
      this.syncing = null;
    }
  }

  /** Closes the file once its appends are done. */
  async close(): Promise<void> {
    await this.tail;
    await (await this.handle).close();
  }
}
