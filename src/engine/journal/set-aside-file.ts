/**
 * Where the journal keeps what it will not write again: batches the engine refused as data, and
 * segments whose end is damaged. Kept (owner-only, beside the segments but not named like one)
 * for an operator to inspect; replay never reads them.
 */
import { renameSync } from 'node:fs';
import { appendFile, open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { SegmentDirectory } from './journal-segments.js';

export class SetAsideFile {
  readonly path: string;
  /** Batches kept since this process started. */
  batches = 0;

  constructor(private readonly directory: SegmentDirectory) {
    this.path = join(directory.path, 'set-aside.records');
  }

  /** Appends a framed record, durably. */
  async keep(frame: readonly Buffer[]): Promise<void> {
    await appendFile(this.path, Buffer.concat(frame), { mode: 0o600 });
    const handle = await open(this.path, 'r');
    await handle.datasync().finally(() => handle.close());
    this.batches++;
  }

  /** Moves a whole segment aside, under a name replay does not read. */
  keepFile(segmentPath: string): void {
    renameSync(segmentPath, join(this.directory.path, `damaged-${basename(segmentPath)}`));
  }
}
