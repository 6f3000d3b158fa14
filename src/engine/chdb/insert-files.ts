import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where the chDB adapter stages an insert's Native block for `INSERT … SELECT FROM file()`.
 * chDB's inline insert takes text formats only, and binary payloads through its native call fail
 * on certain bytes (docs/engine.md, "Writing events"), so a block goes through a file; reading the
 * same bytes from a file also costs the engine less than the inline path. The folder lives in the
 * data dir (owner-only, like the engine's files); each file is removed after its insert, and a
 * crash leaves at most a few, which the first insert after the next open sweeps.
 */
export class InsertFiles {
  private readonly dir: string;
  private swept = false;

  constructor(enginePath: string) {
    this.dir = join(enginePath, 'vigil_inserts');
  }

  /** Writes the chunks, one after another, to a new file, runs `work` with its path, then removes the file. */
  async with<T>(chunks: readonly Uint8Array[], work: (path: string) => Promise<T>): Promise<T> {
    this.prepare();
    const path = join(this.dir, `${randomUUID()}.bin`);
    try {
      // Written as they are (writev), not joined first: a block is tens of megabytes.
      const file = await open(path, 'wx', 0o600);
      try {
        const { bytesWritten } = await file.writev(chunks as Uint8Array[]);
        const expected = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
        // eslint-disable-next-line no-restricted-syntax -- internal invariant: libuv writes every buffer or fails
        if (bytesWritten !== expected) throw new Error(`wrote ${bytesWritten} of ${expected} bytes of an insert's block`);
      } finally {
        await file.close();
      }
      return await work(path);
    } finally {
      await rm(path, { force: true });
    }
  }

  private prepare(): void {
    if (this.swept) return;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(this.dir)) rmSync(join(this.dir, name), { force: true });
    this.swept = true;
  }
}
