import { IngestError, messageOf } from '../core/index.js';
import type { LineError } from '../ingest/index.js';
import type { FileChunk } from './file-chunks.js';
import { formatCount } from './output.js';

/** What one piece of a file did, in process or through a server. */
export interface PieceResult {
  readonly ingested: number;
  readonly rejected: number;
  readonly withoutTime: number;
  /** Line numbers within the piece. */
  readonly errors: readonly LineError[];
  readonly bytes: number;
  readonly format: string | null;
  /** An earlier run ingested this piece: nothing was written now, the counts are that run's. */
  readonly duplicate: boolean;
}

/** Ingests one piece, reporting the events written so far as it goes. */
export type IngestPiece = (chunk: FileChunk, onEvents: (ingested: number) => void) => Promise<PieceResult>;

/** What the pieces of one file did, counted in file order. */
export interface PiecesTally {
  /** Events written by this run. */
  ingested: number;
  /** Events of pieces an earlier run had ingested, skipped now. */
  alreadyIngested: number;
  rejected: number;
  withoutTime: number;
  /** Decoded input bytes, the same in process and through a server (docs/ingest.md). */
  bytes: number;
  /** The reader used (`ndjson`, `cloudtrail`, …). */
  format: string | null;
  /** Line numbers of the file. */
  readonly errors: LineError[];
}

/** Progress of a file: the last piece read, and the events and rejected lines so far. */
export type PiecesProgress = (chunk: FileChunk, events: number, rejected: number, force: boolean) => void;

/**
 * Pieces of a file in flight at once: while one is written, the next is read and parsed, so one
 * file keeps the engine's insert and the CLI's parsing busy together (a piece awaited before the
 * next started left one of them idle; docs/benchmarks-journal.md, "Two pieces in flight").
 */
export const piecesInFlight = 2;

/** Line errors kept per file. */
export const maxReportedErrors = 100;

interface PieceInFlight {
  readonly chunk: FileChunk;
  readonly done: Promise<PieceResult>;
}

/**
 * Ingests the pieces of `file`, up to `piecesInFlight` at once; the first goes alone, since it
 * may create the index the next must find. Pieces are counted in file order, so line numbers and
 * the lines done stay the file's. When a piece fails (or reading the file does), the pieces in
 * flight finish first and the IngestError says what the run wrote.
 */
export async function ingestPieces(file: string, chunks: AsyncIterable<FileChunk>, piece: IngestPiece, progress: PiecesProgress): Promise<PiecesTally> {
  const tally: PiecesTally = { ingested: 0, alreadyIngested: 0, rejected: 0, withoutTime: 0, bytes: 0, format: null, errors: [] };
  let doneThroughLine = 0;
  const inFlight: PieceInFlight[] = [];
  // The events each piece in flight reported so far, for the progress shown.
  const reported = new Map<FileChunk, number>();
  const shown = (): number => tally.ingested + tally.alreadyIngested + [...reported.values()].reduce((n, events) => n + events, 0);
  const count = (chunk: FileChunk, r: PieceResult): void => {
    reported.delete(chunk);
    if (r.duplicate) tally.alreadyIngested += r.ingested;
    else tally.ingested += r.ingested;
    tally.rejected += r.rejected;
    tally.withoutTime += r.withoutTime;
    tally.bytes += r.bytes;
    tally.format ??= r.format;
    // A document is one piece numbered by element; lines of other pieces count from the file's start.
    const offset = chunk.format === 'auto' ? 0 : chunk.firstLine - 1;
    for (const e of r.errors) if (tally.errors.length < maxReportedErrors) tally.errors.push({ line: e.line + offset, error: e.error });
    doneThroughLine = chunk.lastLine;
  };
  const countNext = async (): Promise<void> => {
    const { chunk, done } = inFlight[0] as PieceInFlight;
    count(chunk, await done);
    inFlight.shift();
    progress(chunk, shown(), tally.rejected, true);
  };
  try {
    for await (const chunk of chunks) {
      const done = piece(chunk, (ingested) => {
        reported.set(chunk, ingested);
        progress(chunk, shown(), tally.rejected, false);
      });
      done.catch(() => {}); // counted, or its failure thrown, in file order by countNext
      inFlight.push({ chunk, done });
      while (inFlight.length >= (doneThroughLine === 0 ? 1 : piecesInFlight)) await countNext();
    }
    while (inFlight.length > 0) await countNext();
  } catch (error) {
    const settled = await Promise.allSettled(inFlight.map((p) => p.done));
    let failed = 0;
    for (; failed < settled.length; failed++) {
      const outcome = settled[failed] as PromiseSettledResult<PieceResult>;
      if (outcome.status === 'rejected') break;
      count((inFlight[failed] as PieceInFlight).chunk, outcome.value);
    }
    const later = settled.flatMap((outcome, i) =>
      i > failed && outcome.status === 'fulfilled' ? [{ chunk: (inFlight[i] as PieceInFlight).chunk, events: outcome.value.ingested }] : [],
    );
    throw new IngestError(`${file}: ${messageOf(error)}; ${whatWasIngested(tally, doneThroughLine, later)}. Running the same command again skips what was ingested and goes on`, {
      cause: error,
    });
  }
  return tally;
}

/** What a file's run wrote before it failed: the lines done from its start, then any later piece that finished all the same. */
function whatWasIngested(tally: PiecesTally, doneThroughLine: number, later: readonly { chunk: FileChunk; events: number }[]): string {
  const done = tally.ingested + tally.alreadyIngested;
  const first = done === 0 ? 'no events of it were ingested' : `its first ${formatCount(done)} events were ingested (lines 1 to ${doneThroughLine})`;
  return [first, ...later.map(({ chunk, events }) => `and ${formatCount(events)} events of lines ${chunk.firstLine} to ${chunk.lastLine}`)].join(', ');
}
