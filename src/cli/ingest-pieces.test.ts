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

/** What a piece of 10 lines with one rejected (its line 3) did. */
const tenLinesOneRejected: PieceResult = { ingested: 9, rejected: 1, withoutTime: 0, errors: [{ line: 3, error: 'invalid JSON' }], bytes: 100, format: 'ndjson', duplicate: false };

/** That piece, finishing after `delayMs`. */
function result(delayMs: number): Promise<PieceResult> {
  return new Promise((resolve) => setTimeout(() => resolve(tenLinesOneRejected), delayMs));
}

/** Lets every promise callback and I/O turn pending now run. */
function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

const noProgress = () => {};

describe('ingestPieces', () => {
  it('sends the first piece alone, then keeps two in flight, and counts them in file order', async () => {
    const log: string[] = [];
    const finishers = new Map<string, () => void>();
    let running = 0;
    const tallied = ingestPieces(
      'f',
      read(pieces(5)),
      (chunk) => {
        running++;
        log.push(`start ${chunk.ingestId} with ${running} running`);
        return new Promise<PieceResult>((resolve) =>
          finishers.set(chunk.ingestId, () => {
            running--;
            resolve(tenLinesOneRejected);
          }),
        );
      },
      noProgress,
    );
    const finish = async (id: string): Promise<void> => {
      await settled();
      (finishers.get(id) as () => void)();
      await settled();
    };
    await settled();
    expect(log).toEqual(['start piece-0 with 1 running']);
    await finish('piece-0');
    expect(log.slice(1)).toEqual(['start piece-1 with 1 running', 'start piece-2 with 2 running']);
    // piece-2 ends first; piece-3 waits until piece-1, before it in the file, is counted
    await finish('piece-2');
    expect(log).toHaveLength(3);
    await finish('piece-1');
    expect(log.slice(3)).toEqual(['start piece-3 with 1 running', 'start piece-4 with 2 running']);
    await finish('piece-4');
    await finish('piece-3');
    const tally = await tallied;
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
