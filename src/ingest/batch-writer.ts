import { EngineError, VigilError } from '../core/index.js';
import { FieldPathIds, isRowDataError, type EncodedEventRow } from '../engine/index.js';
import type { Clock } from '../core/index.js';
import { IngestRowEncoder, type EncodedRow } from './ingest-row-encoder.js';
import type { IngestDependencies } from './ingest-types.js';

/** What every row of one ingest shares. */
export interface RowScope {
  readonly tenant: string;
  readonly indexId: string;
  readonly sourceType: string;
}

export interface BatchLimits {
  readonly batchRows: number;
  /** Estimated encoded size: each row's `EncodedRow.bytes`. */
  readonly batchBytes: number;
}

/** Called for a row the engine refused on its own: its input line and the engine's reason. */
export type RowRefused = (lineNo: number, reason: string) => void;

/**
 * A row of the open batch: its head and fields, encoded when the row was added, and its time.
 * The event's text, values text and flattened object are not kept: held for a whole batch (tens
 * of thousands of rows), they outlived the young generation and made every scavenge copy them.
 */
interface OpenRow {
  readonly head: Uint8Array;
  readonly fields: Uint8Array;
  readonly tsNs: bigint;
  /** False when the row was stamped with the ingest time (no timestamp field gave one). */
  readonly timed: boolean;
}

/**
 * Collects rows into batches and writes them with at most one insert in flight: while the engine
 * writes batch N, the caller parses batch N+1, and `flush` of N+1 waits for N first. Rows come
 * encoded by the writer's own `rowEncoder`; sequence numbers are reserved per
 * batch when it is closed, so they follow input order.
 */
export class BatchWriter {
  /** Rows the engine confirmed written. */
  ingested = 0;
  /** Of those, rows stamped with the ingest time (no timestamp field gave one). */
  withoutTime = 0;
  /** Input line of the last row of the last batch written: every line up to it is done. */
  writtenThroughLine = 0;
  private rows: OpenRow[] = [];
  private lineNos: number[] = [];
  private bytes = 0;
  private inFlight: Promise<void> | null = null;
  private failure: unknown = null;
  /** The ids of the paths this writer's rows hold, which their encoded fields name. */
  private readonly paths = new FieldPathIds();

  constructor(
    private readonly deps: Pick<IngestDependencies, 'engine' | 'reserveSequence'>,
    private readonly scope: RowScope,
    private readonly limits: BatchLimits,
    private readonly onWritten: () => void = () => {},
    private readonly onRefused: RowRefused = () => {},
  ) {}

  /** An encoder of events into rows for this writer: their fields name paths by its ids. */
  rowEncoder(timestampFields: readonly string[], clock: Clock): IngestRowEncoder {
    return new IngestRowEncoder(this.deps.engine, this.paths, timestampFields, clock);
  }

  /** Adds one row, made by this writer's `rowEncoder` and read from input line `lineNo`, to the open batch. */
  add(row: EncodedRow, lineNo = 0): void {
    const { head, fields, tsNs, timed } = row;
    this.rows.push({ head, fields, tsNs, timed });
    this.lineNos.push(lineNo);
    this.bytes += row.bytes;
  }

  /** True when the open batch reached a limit and should be flushed. */
  get full(): boolean {
    return this.rows.length >= this.limits.batchRows || this.bytes >= this.limits.batchBytes;
  }

  /** Closes the open batch and starts its insert, after the previous insert has finished. */
  async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    if (this.failure !== null) await this.drain(); // do not reserve sequences after a failed insert
    const rows = this.rows;
    const lineNos = this.lineNos;
    this.rows = [];
    this.lineNos = [];
    this.bytes = 0;
    const first = await this.deps.reserveSequence(rows.length);
    const { tenant, indexId, sourceType } = this.scope;
    const encoded = new Array<EncodedEventRow>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const { head, fields, tsNs } = rows[i] as OpenRow;
      encoded[i] = { head, fields, paths: this.paths, event: { tenant, indexId, sourceType, tsNs, seq: first + BigInt(i) } };
    }
    await this.drain();
    // the rejection is captured at once: nobody awaits this promise until the next flush
    const lastLine = lineNos[lineNos.length - 1] ?? 0;
    this.inFlight = this.insert(rows, encoded, lineNos).then(
      () => {
        this.writtenThroughLine = lastLine;
        this.onWritten();
      },
      (error: unknown) => {
        this.failure = error;
      },
    );
  }

  /**
   * Inserts rows; when the engine refuses the data of some row (not a failure of the engine
   * itself), inserts each half apart, down to single rows, so one bad value costs its own line
   * and never the batch. A failed insert writes nothing, so retrying its rows cannot duplicate.
   */
  private async insert(rows: readonly OpenRow[], encoded: readonly EncodedEventRow[], lineNos: readonly number[]): Promise<void> {
    const { tenant, indexId } = this.scope;
    let minTsNs = (rows[0] as OpenRow).tsNs;
    let maxTsNs = minTsNs;
    for (const r of rows) {
      if (r.tsNs < minTsNs) minTsNs = r.tsNs;
      if (r.tsNs > maxTsNs) maxTsNs = r.tsNs;
    }
    try {
      const result = await this.deps.engine.insertEvents({ rows: [...encoded], extents: [{ tenant, indexId, minTsNs, maxTsNs }] });
      this.ingested += result.rows;
      for (const r of rows) if (!r.timed) this.withoutTime++;
    } catch (error) {
      if (!isRowDataError(error)) throw error;
      if (rows.length === 1) return this.onRefused(lineNos[0] ?? 0, `the engine refused the event: ${firstLineOf(error)}`);
      const half = Math.ceil(rows.length / 2);
      await this.insert(rows.slice(0, half), encoded.slice(0, half), lineNos.slice(0, half));
      await this.insert(rows.slice(half), encoded.slice(half), lineNos.slice(half));
    }
  }

  /** Waits for the insert in flight; rethrows its failure. */
  async drain(): Promise<void> {
    if (this.inFlight !== null) {
      const pending = this.inFlight;
      this.inFlight = null;
      await pending;
    }
    if (this.failure !== null) {
      const error = this.failure;
      this.failure = null;
      throw error instanceof VigilError ? error : new EngineError('inserting a batch of events', { cause: error });
    }
  }

  /** Waits for the insert in flight and ignores its outcome: the caller is already failing. */
  async settle(): Promise<void> {
    await this.drain().catch(() => {});
  }

  /** Rows added but not yet handed to the engine (dropped when the ingest fails). */
  get pendingRows(): number {
    return this.rows.length;
  }
}

/** The engine's own reason, short: the first line of the innermost message, without the stack. */
function firstLineOf(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause !== undefined) current = current.cause;
  const message = current instanceof Error ? current.message : String(current);
  return (message.split('\n')[0] ?? '').slice(0, 300);
}
