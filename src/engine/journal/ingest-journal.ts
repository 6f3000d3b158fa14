/**
 * The ingest journal: a batch is acknowledged once its record is on disk here, and written to
 * the engine later, grouped with the batches that came after it, so that a shipper's small
 * requests become one part of some 10,000 events instead of one part each (a part's size is what
 * an event's insert and merges cost: docs/engine.md, "The ingest journal").
 *
 * Records are written in groups when the pending ones reach `flushEvents` or `flushBytes`, or
 * `lingerMs` after the first; `written()` writes whatever is pending at once and waits for it,
 * which is how reads see every acknowledged event. A segment is removed once each of its records
 * is written; records left at start are written again by `replay`.
 */
import { EngineError, ErrorCodes, type Logger } from '../../core/index.js';
import type { EventBatch } from '../engine.js';
import { appendError, setAsideAfter } from './journal-errors.js';
import { encodeJournalRecord } from './journal-record.js';
import { replaySegments } from './journal-replay.js';
import { frameOf, SegmentDirectory } from './journal-segments.js';
import { LiveSegments, type Segment } from './live-segments.js';
import { SetAsideFile } from './set-aside-file.js';

export interface IngestJournalOptions {
  /** Pending events that start a write. */
  readonly flushEvents: number;
  /** Pending bytes (rows' encoded bytes) that start a write. */
  readonly flushBytes: number;
  /** How long the first pending record waits for others. */
  readonly lingerMs: number;
  /** Appends wait (or fail, while the engine is failing) once this many bytes are pending. */
  readonly maxPendingBytes: number;
  /** Longest wait between tries while the engine fails. */
  readonly maxRetryDelayMs: number;
}

export const defaultJournalOptions: IngestJournalOptions = {
  flushEvents: 20_000,
  flushBytes: 64 * 1024 * 1024,
  lingerMs: 2000,
  maxPendingBytes: 128 * 1024 * 1024,
  maxRetryDelayMs: 30_000,
};

/** Writes a batch to the engine: one insert. */
export type WriteBatch = (batch: EventBatch) => Promise<void>;

/**
 * Writes batches to the engine as one insert, and answers each one's outcome, in order (a
 * batch the engine cannot read fails alone; table-backed-engine.ts, `insertEventGroup`).
 */
export type WriteGroup = (batches: readonly EventBatch[]) => Promise<readonly PromiseSettledResult<unknown>[]>;

interface Entry {
  readonly batch: EventBatch;
  readonly bytes: number;
  readonly segment: Segment;
  /** Tries that failed with it alone or in its group. */
  attempts: number;
}

/** Writes at most this many groups at once unless a reader waits (the engine's two inserts). */
const concurrentGroups = 2;

export class IngestJournal {
  private readonly directory: SegmentDirectory;
  private readonly segments: LiveSegments;
  private readonly setAside: SetAsideFile;
  private readonly pending: Entry[] = [];
  private pendingEvents = 0;
  private pendingBytes = 0;
  /** Events acknowledged and not yet written (pending or in a group being written). */
  private unwrittenEvents = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  /** The engine's last failure while writing, until a write succeeds. */
  private failure: unknown = null;
  private retryDelayMs = 0;
  private readonly flushed: (() => void)[] = [];
  private closed = false;
  private replayed: Promise<number> | null = null;

  constructor(
    path: string,
    private readonly write: WriteGroup,
    private readonly logger: Logger,
    private readonly options: IngestJournalOptions = defaultJournalOptions,
  ) {
    this.directory = new SegmentDirectory(path);
    this.setAside = new SetAsideFile(this.directory, logger);
    this.segments = new LiveSegments(this.directory, logger);
  }

  /**
   * Writes again every record an earlier run left, with `writeAgain` (which must not double
   * events already written), then removes its segments (journal-replay.ts). Answers the events
   * written. Only the first call reads the segments: later ones hold this run's own records.
   */
  replay(writeAgain: WriteBatch): Promise<number> {
    this.replayed ??= replaySegments(this.directory, this.setAside, writeAgain, this.logger).then(
      ({ events }) => events,
      (error: unknown) => {
        this.replayed = null;
        throw error;
      },
    );
    return this.replayed;
  }

  /**
   * Whether this many events (and bytes of encoded rows) make a whole group: pending records
   * that do are written at once, and a batch that does alone is one part already, which the
   * engine may write without the journal.
   */
  fillsGroup(events: number, bytes: number): boolean {
    return events >= this.options.flushEvents || bytes >= this.options.flushBytes;
  }

  /** Events acknowledged and not yet written, and batches set aside since start (for /metrics). */
  stats(): { readonly unwrittenEvents: number; readonly setAsideBatches: number } {
    return { unwrittenEvents: this.unwrittenEvents, setAsideBatches: this.setAside.batches };
  }

  /** Resolves once the batch is on disk in the journal; the engine gets it later. */
  async append(batch: EventBatch, bytes: number): Promise<void> {
    if (this.closed) throw new EngineError('the engine is closing', { code: ErrorCodes.unavailable });
    while (this.pendingBytes >= this.options.maxPendingBytes) {
      if (this.failure !== null)
        throw new EngineError('the engine is not taking events, and the ingest journal is full; retry later', { code: ErrorCodes.unavailable, cause: this.failure });
      await new Promise<void>((resolve) => this.flushed.push(resolve));
      if (this.closed) throw new EngineError('the engine is closing', { code: ErrorCodes.unavailable });
    }
    const segment = this.segments.forAppend();
    segment.appending++;
    try {
      await segment.file.append(frameOf(encodeJournalRecord(batch)));
    } catch (error) {
      // The file's end is unknown now: later records go to a new segment.
      this.segments.seal(segment);
      throw appendError(error);
    } finally {
      segment.appending--;
    }
    segment.unwritten++;
    this.pending.push({ batch, bytes, segment, attempts: 0 });
    this.unwrittenEvents += batch.rows.length;
    this.pendingEvents += batch.rows.length;
    this.pendingBytes += bytes;
    if (this.fillsGroup(this.pendingEvents, this.pendingBytes)) this.flushIfFree();
    else this.timer ??= setTimeout(() => this.onTimer(), this.options.lingerMs).unref();
  }

  /**
   * Writes every record acknowledged so far, and waits for that try (and for groups already
   * being written). A reader may go on whatever came of it: records that could not be written
   * are tried again later, and the engine's own failure, if it is down, reaches the reader from
   * its read. A delete may not (`strict`): a record written after it would bring back what it
   * deleted, so it rejects until every earlier record is written or set aside.
   */
  async written(options: { readonly strict?: boolean } = {}): Promise<void> {
    while (this.pending.length > 0) this.flush();
    const outcomes = await Promise.allSettled([...this.inFlight]);
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined && options.strict === true) throw (failed as PromiseRejectedResult).reason;
  }

  /** Writes what is pending and closes the files; what cannot be written stays for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    try {
      await this.written({ strict: true });
    } catch (error) {
      this.logger.warn({ err: error, events: this.unwrittenEvents }, 'the ingest journal could not write every event before closing; they are written at the next start');
    }
    await this.segments.close();
    for (const wake of this.flushed.splice(0)) wake();
  }

  private onTimer(): void {
    this.timer = null;
    if (this.inFlight.size < concurrentGroups) this.flush();
    else if (this.pending.length > 0) this.timer = setTimeout(() => this.onTimer(), this.options.lingerMs).unref();
  }

  private flushIfFree(): void {
    if (this.failure === null && this.inFlight.size < concurrentGroups) this.flush();
  }

  /** Starts writing the oldest pending records as one group of up to `flushBytes` (one at least). */
  private flush(): void {
    this.clearTimer();
    let taken = 0;
    let bytes = 0;
    for (const entry of this.pending) {
      if (taken > 0 && bytes + entry.bytes > this.options.flushBytes) break;
      bytes += entry.bytes;
      taken++;
    }
    if (taken === 0) return;
    const group = this.pending.splice(0, taken);
    this.pendingBytes -= bytes;
    for (const entry of group) this.pendingEvents -= entry.batch.rows.length;
    // Records appended from now on go to a new segment, so this one can go once its group is written.
    this.segments.seal();
    const writing: Promise<void> = this.writeGroup(group).finally(() => {
      this.inFlight.delete(writing);
      this.afterGroup();
    });
    this.inFlight.add(writing);
    // A reader waiting in `written` hears of a failure; nobody else has to.
    writing.catch(() => {});
  }

  private afterGroup(): void {
    for (const wake of this.flushed.splice(0)) wake();
    this.segments.removeWritten();
    if (this.pending.length === 0 || this.closed) return;
    if (this.failure !== null) {
      this.clearTimer();
      this.timer = setTimeout(() => this.flush(), this.retryDelayMs).unref();
    } else if (this.fillsGroup(this.pendingEvents, this.pendingBytes)) this.flushIfFree();
    else this.timer ??= setTimeout(() => this.onTimer(), this.options.lingerMs).unref();
  }

  /**
   * Writes a group as one insert. A record that failed is queued again (the group then rejects,
   * so a strict reader hears why), unless the engine refused it as data, or it failed alone
   * `attemptsBeforeSetAside` times while the engine was well: then it is set aside, so that one
   * bad record never stops the rest.
   */
  private async writeGroup(group: readonly Entry[]): Promise<void> {
    let outcomes: readonly PromiseSettledResult<unknown>[];
    try {
      outcomes = await this.write(group.map((entry) => entry.batch));
    } catch (error) {
      return this.failed(group.map((entry) => ({ entry, error })));
    }
    const failures: { entry: Entry; error: unknown }[] = [];
    for (const [at, entry] of group.entries()) {
      const outcome = outcomes[at];
      if (outcome?.status === 'fulfilled') this.succeeded(entry);
      else failures.push({ entry, error: outcome?.reason ?? new EngineError('the engine gave no outcome for a batch') });
    }
    if (failures.length > 0) await this.failed(failures);
  }

  /** Sets aside the records the engine will not take and queues the others again, in order; rejects when any is queued. */
  private async failed(failures: readonly { readonly entry: Entry; readonly error: unknown }[]): Promise<void> {
    const again: Entry[] = [];
    for (const { entry, error } of failures) {
      entry.attempts++;
      if (setAsideAfter(error, entry.attempts)) await this.keepAside(entry, error);
      else again.push(entry);
    }
    const first = failures[0]?.error;
    if (again.length === 0) return;
    this.requeue(again, first);
    throw first;
  }

  /** Keeps a record the engine does not take in the set-aside file (logged), and counts it done. */
  private async keepAside(entry: Entry, error: unknown): Promise<void> {
    await this.setAside.keep(encodeJournalRecord(entry.batch), entry.batch.rows.length, error);
    this.done(entry);
  }

  private requeue(entries: readonly Entry[], error: unknown): void {
    this.failure = error;
    this.retryDelayMs = Math.min(this.options.maxRetryDelayMs, Math.max(250, this.retryDelayMs * 2));
    this.pending.unshift(...entries);
    for (const entry of entries) {
      this.pendingEvents += entry.batch.rows.length;
      this.pendingBytes += entry.bytes;
    }
    this.logger.warn({ err: error, events: this.pendingEvents, retryInMs: this.retryDelayMs }, 'could not write journaled events to the engine; trying again');
  }

  private succeeded(entry: Entry): void {
    this.failure = null;
    this.retryDelayMs = 0;
    this.done(entry);
  }

  private done(entry: Entry): void {
    entry.segment.unwritten--;
    this.unwrittenEvents -= entry.batch.rows.length;
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
