import { createHash } from 'node:crypto';
import { IngestError, PayloadTooLargeError } from '../core/index.js';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { classifyFirstLine, isBlankLine, maxDocumentBytes, secondLineIsEvent } from '../ingest/index.js';

/** Largest piece of a file `vigil ingest` sends or writes at once (decoded bytes). */
export const cliChunkBytes = 16 * 1024 * 1024;

/** How a piece is read: line by line as NDJSON or text, or whole (a JSON array or document). */
export type ChunkFormat = 'ndjson' | 'text' | 'auto';

/** A piece of a file: whole lines `firstLine`..`lastLine` (1-based, of the decoded input). */
export interface FileChunk {
  readonly firstLine: number;
  readonly lastLine: number;
  /** The decoded lines, newlines included. */
  readonly bytes: Buffer;
  readonly format: ChunkFormat;
  /**
   * Names the piece by its content and place, so a run that repeats it (after a crash, a kill,
   * a broken connection) is recognised and the piece is not written twice (docs/ingest.md).
   */
  readonly ingestId: string;
  /** Bytes of the file read once this piece was cut (compressed bytes for gzip), for progress. */
  readonly inputBytesRead: number;
}

/**
 * Cuts an input (a file or standard input, gzip or not, detected from its first bytes) into
 * pieces of whole lines of at most `maxBytes` (one longer line is a piece of its own), decoding
 * gzip here, so any file size works in bounded requests. The format is decided once, from the
 * first lines, as ingest's `auto` reader decides it, and every piece is read that way: a JSON
 * array or pretty-printed document cannot be cut, so it is one piece. Pieces are cut at the same
 * places for the same input and `maxBytes`, which makes their ids stable across runs. A damaged
 * gzip stream ends with IngestError after the pieces before the damage.
 */
export async function* fileChunks(source: AsyncIterable<Buffer>, maxBytes: number, onGzip: (gzip: boolean) => void): AsyncGenerator<FileChunk> {
  let inputBytes = 0;
  const counted = (async function* () {
    for await (const chunk of source) {
      inputBytes += chunk.length;
      yield chunk;
    }
  })();
  const first = await counted.next();
  if (first.done) return;
  const head = first.value;
  const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  onGzip(gzip);
  const rest = (async function* () {
    yield head;
    yield* counted;
  })();
  const decoded: AsyncIterable<Buffer> = gzip ? Readable.from(rest).pipe(createGunzip({ chunkSize: 1 << 20 })) : rest;

  let pending: Buffer = Buffer.alloc(0);
  let format: ChunkFormat | null = null;
  let nextLine = 1;
  const cut = (bytes: Buffer): FileChunk => {
    const lines = countLines(bytes);
    const chunk: FileChunk = {
      firstLine: nextLine,
      lastLine: nextLine + lines - 1,
      bytes,
      format: format ?? 'auto',
      ingestId: `cli:${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}:${nextLine}-${nextLine + lines - 1}`,
      inputBytesRead: inputBytes,
    };
    nextLine += lines;
    return chunk;
  };
  // Decoded pieces are joined only when a piece of the file is cut (or the format is still open).
  let parts: Buffer[] = [];
  let size = 0;
  const joined = (): Buffer => {
    if (parts.length !== 1) parts = [Buffer.concat(parts, size)];
    return parts[0] ?? Buffer.alloc(0);
  };
  try {
    for await (const piece of decoded) {
      parts.push(piece);
      size += piece.length;
      format ??= decideFormat(joined(), false);
      if (format === 'auto' && size > maxDocumentBytes) {
        throw new PayloadTooLargeError(`a JSON array or document over ${maxDocumentBytes} bytes cannot be read whole; send one event per line (NDJSON)`);
      }
      if (format === null || format === 'auto' || size < maxBytes) continue; // undecided, or a document: read it whole
      pending = joined();
      while (pending.length >= maxBytes) {
        const end = pieceEnd(pending, maxBytes);
        if (end < 0) break;
        yield cut(pending.subarray(0, end));
        pending = pending.subarray(end);
      }
      parts = [pending];
      size = pending.length;
    }
    pending = joined();
  } catch (error) {
    if (error instanceof PayloadTooLargeError) throw error;
    pending = joined();
    // A damaged gzip stream: the complete lines before the damage are still a piece.
    const end = pending.lastIndexOf(0x0a) + 1;
    format ??= decideFormat(pending, true) ?? 'auto';
    if (end > 0 && format !== 'auto') yield cut(pending.subarray(0, end));
    throw new IngestError(`gzip stream is corrupt: ${error instanceof Error ? error.message : String(error)}`);
  }
  format ??= decideFormat(pending, true) ?? 'auto';
  if (pending.length > 0) yield cut(pending);
}

/**
 * The format from the first non-blank lines: null while they are not all read yet (`atEnd`
 * false), `auto` for a JSON array or document (read whole by ingest's own detection).
 */
function decideFormat(bytes: Buffer, atEnd: boolean): ChunkFormat | null {
  const text = bytes
    .subarray(0, Math.min(bytes.length, 4 * 1024 * 1024))
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const lines = text.split('\n');
  const complete = atEnd ? lines : lines.slice(0, -1);
  const nonBlank = complete.map((line) => line.replace(/\r$/, '')).filter((line) => !isBlankLine(line));
  const [firstLine, secondLine] = nonBlank;
  if (firstLine === undefined) return atEnd ? 'ndjson' : null;
  switch (classifyFirstLine(firstLine)) {
    case 'ndjson':
      return 'ndjson';
    case 'text':
      return 'text';
    case 'json-document':
      return 'auto';
    case 'undecided':
      if (secondLine === undefined) return atEnd ? 'ndjson' : null;
      return secondLineIsEvent(secondLine) ? 'ndjson' : 'auto';
  }
}

/** Where a piece of at most `maxBytes` ends: after the last newline within it, else after the first. */
function pieceEnd(bytes: Buffer, maxBytes: number): number {
  const within = bytes.lastIndexOf(0x0a, maxBytes - 1);
  if (within >= 0) return within + 1;
  const after = bytes.indexOf(0x0a, maxBytes);
  return after < 0 ? -1 : after + 1;
}

/** Lines in a piece: its newlines, plus one for a last line without one. */
function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? lines + 1 : lines;
}
