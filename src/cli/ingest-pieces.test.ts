import { describe, expect, it } from 'vitest';
import type { FileChunk } from './file-chunks.js';
import { ingestPieces, piecesInFlight, type PieceResult } from './ingest-pieces.js';

/** Pieces of 10 lines each, lines numbered as in the file. */
function pieces(count: number): FileChunk[] {
  return Array.from({ length: count }, (_, i) => ({
    firstLine: i * 10 + 1,
    lastLine: i * 10 + 10,
    bytes: Buffer.alloc(0),
    format: 'ndjson' as const,
    ingestId: `piece-${i}`,
    inputBytesRead: (i + 1) * 100,
  }));
}

async function* read(chunks: readonly FileChunk[], failAfter = Infinity): AsyncGenerator<FileChunk> {
  for (const [i, chunk] of chunks.entries()) {
    if (i === failAfter) throw new Error('gzip stream is corrupt');
    yield chunk;
  }
}

/** A piece of 10 lines with one rejected (its line 3), finishing after `delayMs`. */
function result(delayMs: number): Promise<PieceResult> {
  return new Promise((resolve) =>
    setTimeout(() => resolve({ ingested: 9, rejected: 1, withoutTime: 0, errors: [{ line: 3, error: 'invalid JSON' }], bytes: 100, format: 'ndjson', duplicate: false }), delayMs),
  );
}

const noProgress = () => {};

describe('ingestPieces', () => {
  it('sends the first piece alone, then keeps two in flight, and counts them in file order', async () => {
    let running = 0;
    const log: string[] = [];
    const delays = [5, 30, 5, 20, 5];
    const tally = await ingestPieces(
      'f',
      read(pieces(5)),
      async (chunk) => {
        running++;
        log.push(`start ${chunk.ingestId} with ${running} running`);
        try {
          return await result(delays[chunk.firstLine === 1 ? 0 : (chunk.firstLine - 1) / 10] as number);
        } finally {
          running--;
        }
      },
      noProgress,
    );
    expect(log).toEqual([
      'start piece-0 with 1 running',
      'start piece-1 with 1 running',
      'start piece-2 with 2 running',
      // piece-2 (5 ms) ended while piece-1 (30 ms) ran; piece-3 waits for piece-1 to be counted
      'start piece-3 with 1 running',
      'start piece-4 with 2 running',
    ]);
    expect(piecesInFlight).toBe(2);
    expect(tally).toMatchObject({ ingested: 45, rejected: 5, bytes: 500, format: 'ndjson' });
    expect(tally.errors.map((e) => e.line)).toEqual([3, 13, 23, 33, 43]);
  });

  it('when a piece fails, lets the next one finish and names both what was done and what was not', async () => {
    const error = await ingestPieces(
      'f',
      read(pieces(4)),
      (chunk) => (chunk.ingestId === 'piece-1' ? Promise.reject(new Error('engine down')) : result(chunk.ingestId === 'piece-2' ? 20 : 1)),
      noProgress,
    ).catch((e: unknown) => e);
    expect(String(error)).toMatch(
      /^IngestError: f: engine down; its first 9 events were ingested \(lines 1 to 10\), and 9 events of lines 21 to 30\. Running the same command again skips what was ingested and goes on$/,
    );
  });

  it('when reading fails, counts the pieces still in flight as done', async () => {
    const error = await ingestPieces('f', read(pieces(5), 3), () => result(10), noProgress).catch((e: unknown) => e);
    expect(String(error)).toMatch(/^IngestError: f: gzip stream is corrupt; its first 27 events were ingested \(lines 1 to 30\)\. Running/);
  });

  it('shows the events of the pieces in flight as they report them', async () => {
    const shown: number[] = [];
    await ingestPieces(
      'f',
      read(pieces(2)),
      async (_chunk, onEvents) => {
        onEvents(4);
        return result(1);
      },
      (_chunk, events) => shown.push(events),
    );
    expect(shown).toEqual([4, 9, 13, 18]);
  });
});
