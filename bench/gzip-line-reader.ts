import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

/**
 * Reads the lines of a gzip text file one at a time with bounded memory. `next()` answers from
 * the decoded chunk while it lasts, so most calls cost no I/O wait.
 */
export class GzipLineReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private readonly decoder = new StringDecoder('utf8');
  private lines: string[] = [];
  private at = 0;
  private rest = '';
  private done = false;

  constructor(path: string) {
    const gunzip = createGunzip({ chunkSize: 1 << 20 });
    // pipe() does not forward read errors; without this a missing file would hang the reader.
    const file = createReadStream(path, { highWaterMark: 1 << 20 }).on('error', (error) => gunzip.destroy(error));
    this.chunks = file.pipe(gunzip)[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  /** The next non-empty line without its terminator, or null at the end of the file. */
  async next(): Promise<string | null> {
    while (this.at >= this.lines.length) {
      if (this.done) return null;
      await this.fill();
    }
    return this.lines[this.at++]!;
  }

  private async fill(): Promise<void> {
    const { value, done } = await this.chunks.next();
    const text = done ? this.rest + this.decoder.end() : this.rest + this.decoder.write(value);
    const parts = text.split('\n');
    this.rest = done ? '' : parts.pop()!;
    this.lines = parts.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)).filter((l) => l.length > 0);
    this.at = 0;
    this.done = Boolean(done);
  }
}
