import type { Logger } from '../../core/index.js';
import { SegmentFile, type SegmentDirectory } from './journal-segments.js';

/** A segment this run appends to, and what is left to do with its records. */
export interface Segment {
  readonly number: number;
  readonly file: SegmentFile;
  /** No more appends go to it. */
  sealed: boolean;
  /** Appends under way (not yet acknowledged). */
  appending: number;
  /** Acknowledged records not yet written or set aside. */
  unwritten: number;
}

/**
 * The segments of this run: the one appends go to, and sealed ones, each removed once it is
 * sealed and every record in it is written. Numbered after any segment an earlier run left, so
 * that this run never appends to one of those.
 */
export class LiveSegments {
  private next: number;
  private current: Segment | null = null;
  private readonly segments = new Set<Segment>();
  private readonly removals = new Set<Promise<void>>();

  constructor(
    private readonly directory: SegmentDirectory,
    private readonly logger: Logger,
  ) {
    this.next = directory.nextNumber();
  }

  /** The segment appends go to, opened on first use. */
  forAppend(): Segment {
    if (this.current === null) {
      const number = this.next++;
      this.current = { number, file: new SegmentFile(this.directory.pathOf(number), this.directory.path), sealed: false, appending: 0, unwritten: 0 };
      this.segments.add(this.current);
    }
    return this.current;
  }

  /** Later appends go to a new segment. */
  seal(segment: Segment | null = this.current): void {
    if (segment === null) return;
    segment.sealed = true;
    if (this.current === segment) this.current = null;
  }

  /** Removes the sealed segments whose records are all written (the removal runs on its own). */
  removeWritten(): void {
    for (const segment of this.segments) {
      if (!segment.sealed || segment.appending > 0 || segment.unwritten > 0) continue;
      this.segments.delete(segment);
      const removal = segment.file
        .close()
        .then(() => this.directory.remove(segment.file.path))
        .catch((error: unknown) =>
          this.logger.warn({ err: error, segment: segment.file.path }, 'could not remove a written ingest journal segment; it is written again at the next start'),
        )
        .finally(() => this.removals.delete(removal));
      this.removals.add(removal);
    }
  }

  /** Removes what is written and closes the rest, which the next start writes. */
  async close(): Promise<void> {
    for (const segment of this.segments) this.seal(segment);
    this.removeWritten();
    await Promise.all(this.removals);
    for (const segment of this.segments) await segment.file.close().catch(() => {});
  }
}
