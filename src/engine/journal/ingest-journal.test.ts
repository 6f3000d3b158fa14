import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError, ErrorCodes, silentLogger } from '../../core/index.js';
import { FieldPathIds } from '../encode-event-fields.js';
import type { EventBatch } from '../engine.js';
import { IngestJournal, type IngestJournalOptions } from './ingest-journal.js';
import { decodeJournalRecord } from './journal-record.js';
import { frameOf, readFrames } from './journal-segments.js';

let dir: string;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'vigil-ingest-journal-')), 'journal');
});
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

const paths = new FieldPathIds();
paths.idOf('user');

/** `count` one-byte events from sequence number `first`. */
function batch(first: number, count = 1): EventBatch {
  const rows = Array.from({ length: count }, (_, i) => ({
    head: new Uint8Array([first + i]),
    fields: new Uint8Array([1]),
    paths,
    event: { tenant: 't', indexId: 'i', sourceType: 's', tsNs: 5n, seq: BigInt(first + i) },
  }));
  return { rows, extents: [{ tenant: 't', indexId: 'i', minTsNs: 5n, maxTsNs: 5n }] };
}

const seqs = (written: EventBatch) => written.rows.map((row) => Number(row.event.seq));

/**
 * A journal over a stand-in for the engine's group insert: the group is written as one, or when
 * that fails each batch alone (as the engine's group commit does). `fail` answers each try by
 * the sequence numbers it holds. `writes` are the sequence numbers of each write that succeeded.
 */
function journalWith(options: Partial<IngestJournalOptions> = {}, fail: (seqs: number[]) => Error | null = () => null) {
  const writes: number[][] = [];
  const tryWrite = (held: number[]): Error | null => {
    const error = fail(held);
    if (error === null) writes.push(held);
    return error;
  };
  const journal = new IngestJournal(
    dir,
    async (batches) => {
      const error = tryWrite(batches.flatMap(seqs));
      if (error === null) return batches.map(() => ({ status: 'fulfilled' as const, value: undefined }));
      if (batches.length === 1) return [{ status: 'rejected' as const, reason: error }];
      return batches.map((written) => {
        const error = tryWrite(seqs(written));
        return error === null ? { status: 'fulfilled' as const, value: undefined } : { status: 'rejected' as const, reason: error };
      });
    },
    silentLogger,
    { flushEvents: 4, flushBytes: 1 << 20, lingerMs: 60_000, maxPendingBytes: 1 << 20, maxRetryDelayMs: 60_000, ...options },
  );
  return { journal, writes };
}

const segmentFiles = () => readdirSync(dir).filter((name) => name.endsWith('.journal') && !name.startsWith('damaged-'));
const engineDown = () => new EngineError('engine unavailable', { code: ErrorCodes.unavailable });
const rowDataError = () => Object.assign(new Error('Code: 117. DB::Exception: bad data'), { clickhouseCode: 117 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the ingest journal', () => {
  it('acknowledges a batch once on disk, and writes the pending ones as one group when they reach flushEvents', async () => {
    const { journal, writes } = journalWith();
    await journal.append(batch(1), 2);
    await journal.append(batch(2, 2), 4);
    expect(writes).toEqual([]);
    expect(journal.stats()).toEqual({ unwrittenEvents: 3, setAsideBatches: 0 });
    expect(segmentFiles()).toHaveLength(1);
    await journal.append(batch(4), 2);
    await journal.written();
    expect(writes).toEqual([[1, 2, 3, 4]]);
    expect(journal.stats().unwrittenEvents).toBe(0);
    await settle();
    expect(segmentFiles()).toEqual([]);
  });

  it('writes groups of at most flushBytes, oldest first', async () => {
    const { journal, writes } = journalWith({ flushEvents: 100, flushBytes: 5 });
    for (const first of [1, 2, 3]) await journal.append(batch(first), 2);
    await journal.written();
    expect(writes).toEqual([[1, 2], [3]]);
  });

  it('writes a lone batch after lingerMs', async () => {
    const { journal, writes } = journalWith({ lingerMs: 30 });
    await journal.append(batch(1), 2);
    expect(writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(writes).toEqual([[1]]);
  });

  it('writes what is pending when a reader asks, and the reader hears of a failure; the batches are tried again', async () => {
    let down = true;
    const { journal, writes } = journalWith({ maxRetryDelayMs: 50 }, () => (down ? engineDown() : null));
    await journal.append(batch(1), 2);
    await expect(journal.written({ strict: true })).rejects.toThrow('engine unavailable');
    down = false;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(writes).toEqual([[1]]);
    await journal.written();
  });

  it('sets aside only the batch the engine refuses as data, and writes the others of its group', async () => {
    const { journal, writes } = journalWith({}, (held) => (held.includes(2) ? rowDataError() : null));
    for (const first of [1, 2, 3, 4]) await journal.append(batch(first), 2);
    await journal.written();
    expect(writes).toEqual([[1], [3], [4]]);
    expect(journal.stats()).toEqual({ unwrittenEvents: 0, setAsideBatches: 1 });
    const kept = readFrames(readFileSync(join(dir, 'set-aside.records'))).records.map((record) => seqs(decodeJournalRecord(record)));
    expect(kept).toEqual([[2]]);
  });

  it('refuses appends while the engine fails and maxPendingBytes are waiting', async () => {
    const { journal } = journalWith({ maxPendingBytes: 4, flushEvents: 100 }, engineDown);
    await journal.append(batch(1), 2);
    await expect(journal.written({ strict: true })).rejects.toThrow();
    await journal.append(batch(2), 2);
    await expect(journal.append(batch(3), 2)).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('keeps what it could not write at close, and the next start writes it again, in order, then removes it', async () => {
    const first = journalWith({}, engineDown);
    await first.journal.append(batch(1, 2), 4);
    await first.journal.append(batch(3), 2);
    await first.journal.close();
    expect(segmentFiles()).toHaveLength(1);

    const next = journalWith();
    const replayed: number[][] = [];
    expect(await next.journal.replay(async (written) => void replayed.push(seqs(written)))).toBe(3);
    expect(replayed).toEqual([[1, 2], [3]]);
    expect(segmentFiles()).toEqual([]);
    // New segments are numbered after the replayed ones, so an old name is never reused.
    await next.journal.append(batch(9), 2);
    expect(segmentFiles()).toEqual(['000000000002.journal']);
    await next.journal.close();
    expect(next.writes).toEqual([[9]]);
    expect(segmentFiles()).toEqual([]);
  });

  it('at start, drops a record cut short by a stop, after writing the whole ones before it', async () => {
    await journalWith().journal.append(batch(1), 2);
    const [name] = segmentFiles();
    const file = join(dir, name as string);
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from([9, 0, 0])]));
    const replayed: number[][] = [];
    await journalWith().journal.replay(async (written) => void replayed.push(seqs(written)));
    expect(replayed).toEqual([[1]]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('at start, keeps a damaged segment aside after writing the whole records before the damage', async () => {
    const first = journalWith();
    await first.journal.append(batch(1), 2);
    await first.journal.append(batch(2), 2);
    const [name] = segmentFiles();
    const file = join(dir, name as string);
    const bytes = readFileSync(file);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    writeFileSync(file, bytes);
    const replayed: number[][] = [];
    await journalWith().journal.replay(async (written) => void replayed.push(seqs(written)));
    expect(replayed).toEqual([[1]]);
    expect(segmentFiles()).toEqual([]);
    expect(existsSync(join(dir, `damaged-${name}`))).toBe(true);
  });

  it('at start, keeps aside a segment holding a record this release cannot read, and starts', async () => {
    const first = journalWith();
    await first.journal.append(batch(1), 2);
    const [name] = segmentFiles();
    const file = join(dir, name as string);
    writeFileSync(file, Buffer.concat([readFileSync(file), ...frameOf(Buffer.from('{"not": "a record"}'))]));
    const replayed: number[][] = [];
    expect(await journalWith().journal.replay(async (written) => void replayed.push(seqs(written)))).toBe(1);
    expect(replayed).toEqual([[1]]);
    expect(existsSync(join(dir, `damaged-${name}`))).toBe(true);
  });

  it('sets aside a batch that fails alone three times while the engine answers, and stops holding back deletes', async () => {
    const tries: number[] = [];
    const { journal, writes } = journalWith({}, (held) => {
      if (!held.includes(2)) return null;
      tries.push(held.length);
      return new Error('Code: 33. DB::Exception: Cannot read all data');
    });
    for (const first of [1, 2, 3]) await journal.append(batch(first), 2);
    // A delete waits for every earlier batch: it hears of the failure until the batch is set aside.
    await expect(journal.written({ strict: true })).rejects.toThrow('Cannot read all data');
    await expect(journal.written({ strict: true })).rejects.toThrow('Cannot read all data');
    await journal.written({ strict: true });
    expect(tries).toEqual([3, 1, 1, 1]);
    expect(writes).toEqual([[1], [3]]);
    expect(readFrames(readFileSync(join(dir, 'set-aside.records'))).records.map((record) => seqs(decodeJournalRecord(record)))).toEqual([[2]]);
  });

  it('lets a reader go on while the engine is down, and a delete hears why; nothing is set aside', async () => {
    const { journal } = journalWith({}, engineDown);
    await journal.append(batch(1), 2);
    for (let i = 0; i < 4; i++) await journal.written();
    await expect(journal.written({ strict: true })).rejects.toThrow('engine unavailable');
    expect(existsSync(join(dir, 'set-aside.records'))).toBe(false);
  });
});
