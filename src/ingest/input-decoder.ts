import { IngestError, PayloadTooLargeError } from '../core/index.js';
import { inflateGzip } from './inflate-gzip.js';
import { Utf8ChunkDecoder } from './utf8-chunk-decoder.js';

export type InputChunk = Buffer | Uint8Array | string;

/** What ingest reads: a stream of chunks (an HTTP body, a file stream), or a plain array of them. */
export type InputSource = AsyncIterable<InputChunk> | Iterable<InputChunk>;

/**
 * Turns the caller's chunks into decoded text: sniffs gzip by its magic bytes (1f 8b) and
 * inflates it as a stream, decodes UTF-8 (invalid bytes become U+FFFD), counts bytes and
 * enforces the decoded-size cap. A damaged gzip stream does not throw from `text()`: the text
 * before the damage is delivered (all of it for a truncated stream; for damage inside the stream,
 * all but what the failing 16 KiB step inflated), the iteration ends, and `corruption` holds the
 * error, so the caller can keep the complete lines it already has before failing.
 */
export class InputDecoder {
  /** Input bytes consumed (compressed bytes for gzip). */
  bytesRead = 0;
  /** Bytes after decompression (the input itself when not gzip). */
  decodedBytes = 0;
  gzip = false;
  corruption: IngestError | null = null;

  constructor(
    private readonly source: InputSource,
    private readonly maxBytes: number = Number.POSITIVE_INFINITY,
    /** Aborting ends a wait for the next chunk at once, with the signal's reason. */
    private readonly signal?: AbortSignal,
  ) {}

  /** The decoded text, in pieces (a chunk may give several). */
  async *text(): AsyncGenerator<string> {
    const iterator = asyncIteratorOf(this.source);
    const head: InputChunk[] = [];
    let headBytes = 0;
    // gzip needs two bytes to recognise; a first chunk may be shorter
    while (headBytes < 2) {
      const next = await this.nextChunk(iterator);
      if (next.done) break;
      head.push(next.value);
      if (typeof next.value === 'string') break;
      headBytes += next.value.length;
    }
    this.gzip = headBytes >= 2 && startsWithGzipMagic(head);
    const raw = this.counted(head, iterator);
    const decoder = new Utf8ChunkDecoder();
    if (this.gzip) {
      for await (const bytes of this.inflated(raw)) yield* this.decode(decoder, bytes);
    } else {
      for await (const chunk of raw) yield* this.decode(decoder, chunk);
    }
    const tail = decoder.end();
    if (tail.length > 0) yield tail;
  }

  /** A chunk's text, in one or more strings (see Utf8ChunkDecoder). */
  private decode(decoder: Utf8ChunkDecoder, chunk: InputChunk): Iterable<string> {
    if (typeof chunk === 'string') {
      this.addDecoded(Buffer.byteLength(chunk, 'utf8'));
      return [chunk];
    }
    this.addDecoded(chunk.length);
    return decoder.write(chunk instanceof Buffer ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }

  private addDecoded(n: number): void {
    this.decodedBytes += n;
    if (this.decodedBytes > this.maxBytes) throw new PayloadTooLargeError(`request body exceeds ${this.maxBytes} bytes`);
  }

  /** The sniffed head, then the rest of the source, counting input bytes as they pass. */
  private async *counted(head: InputChunk[], rest: AsyncIterator<InputChunk>): AsyncGenerator<InputChunk> {
    try {
      for (const chunk of head) {
        this.bytesRead += byteLength(chunk);
        yield chunk;
      }
      for (;;) {
        const next = await this.nextChunk(rest);
        if (next.done) return;
        this.bytesRead += byteLength(next.value);
        yield next.value;
      }
    } finally {
      // stopping early (an error downstream, an abort) must release the caller's source too;
      // not awaited, since a source stuck in a read may only settle after it
      Promise.resolve(rest.return?.()).catch(() => {});
    }
  }

  /** The source's next chunk, or the abort reason as soon as the signal fires. */
  private nextChunk(iterator: AsyncIterator<InputChunk>): Promise<IteratorResult<InputChunk>> {
    const signal = this.signal;
    if (signal === undefined) return iterator.next();
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      iterator
        .next()
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /**
   * Inflates a gzip stream (several members are read one after another, as gunzip does) in
   * small steps, so memory stays bounded; everything inflated before damage is delivered.
   */
  private async *inflated(compressed: AsyncIterable<InputChunk>): AsyncGenerator<Buffer> {
    try {
      yield* inflateGzip(bytesOf(compressed));
    } catch (failure) {
      if (!isZlibError(failure)) throw failure;
      this.corruption = new IngestError(`gzip stream is corrupt after ${this.decodedBytes} decoded bytes: ${(failure as Error).message}`, {
        cause: failure,
      });
    }
  }
}

async function* bytesOf(chunks: AsyncIterable<InputChunk>): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

function asyncIteratorOf(source: InputSource): AsyncIterator<InputChunk> {
  if (Symbol.asyncIterator in source) return source[Symbol.asyncIterator]();
  const sync = source[Symbol.iterator]();
  return {
    next: async () => sync.next(),
    return: async () => sync.return?.() ?? { done: true, value: undefined },
  };
}

/**
 * Whether the head's first two bytes are gzip's magic, read where they lie: the head may be one
 * chunk of a whole 16 MiB piece (`vigil ingest`), which joining would copy for two bytes.
 */
function startsWithGzipMagic(head: readonly InputChunk[]): boolean {
  const first: number[] = [];
  for (const chunk of head) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk.slice(0, 2)) : chunk;
    for (let i = 0; i < bytes.length && first.length < 2; i++) first.push(bytes[i] as number);
    if (first.length === 2) break;
  }
  return first[0] === 0x1f && first[1] === 0x8b;
}

function byteLength(chunk: InputChunk): number {
  return typeof chunk === 'string' ? Buffer.byteLength(chunk, 'utf8') : chunk.length;
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}
