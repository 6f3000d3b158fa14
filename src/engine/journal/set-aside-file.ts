/**
 * Where the journal keeps what it will not write again: batches the engine refused as data, and
 * segments whose end is damaged. Kept (owner-only, beside the segments but not named like one)
 * for an operator to inspect; replay never reads them.
 */
import { renameSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Logger } from '../../core/index.js';
import { frameOf, type SegmentDirectory } from './journal-segments.js';

export class SetAsideFile {
  readonly path: string;
  /** Batches kept since this process started. */
  batches = 0;

  constructor(
    private readonly directory: SegmentDirectory,
    private readonly logger: Logger,
  ) {
    this.path = join(directory.path, 'set-aside.records');
  }

  /** Logs why the engine would not take a record of `events` events, and appends the record, framed, durably. */
  async keep(record: Buffer, events: number, reason: unknown): Promise<void> {
    this.logger.error({ err: reason, events, file: this.path }, 'the engine would not take a journaled batch; it is kept aside');
    const handle = await open(this.path, 'a', 0o600);
    try {
      await handle.writev(frameOf(record));
      await handle.datasync();
    } finally {
      await handle.close();
    }
    this.batches++;
  }

  /** Moves a whole segment aside, under a name replay does not read. */
  keepFile(segmentPath: string): void {
    renameSync(segmentPath, join(this.directory.path, `damaged-${basename(segmentPath)}`));
  }
}
