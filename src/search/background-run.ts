import { EngineError, ErrorCodes, VigilError, newId, type Logger } from '../core/index.js';
import type { DecodedRow } from './decode-rows.js';
import type { QuerySnapshot, QueryStatus } from './query-snapshot.js';

/**
 * What every run behind a query record shares (an ad hoc query, a histogram): its status, its
 * rows so far, cancelling (which aborts the engine work and frees the rows) and failing (kept
 * for `query_progress` to answer). A subclass starts its work last in its constructor.
 */
export abstract class BackgroundRun {
  readonly id = newId();
  protected status: QueryStatus = 'running';
  protected rows: DecodedRow[] = [];
  protected bytesScanned = 0;
  protected error: VigilError | null = null;
  protected readonly abort = new AbortController();
  private finished: Promise<void> = Promise.resolve();

  protected constructor(
    private readonly logger: Logger,
    /** What the run does, for errors and logs: `running query`. */
    private readonly doing: string,
  ) {}

  abstract get tenant(): string;

  abstract snapshot(): QuerySnapshot;

  /** Settles when the run ends, however it ends; never rejects. */
  get done(): Promise<void> {
    return this.finished;
  }

  /** Stops the engine work and frees the rows; idempotent, and a no-op once finished. */
  cancel(): void {
    if (this.status !== 'running') return;
    this.status = 'cancelled';
    this.rows = [];
    this.abort.abort();
  }

  protected get cancelled(): boolean {
    return this.abort.signal.aborted;
  }

  /** Runs the work; call once, when the subclass's fields are set. */
  protected start(work: () => Promise<void>): void {
    this.finished = work().then(
      () => {
        if (this.status === 'running') this.status = 'completed';
      },
      (error: unknown) => this.fail(error),
    );
  }

  private fail(error: unknown): void {
    if (this.status === 'cancelled') return; // the abort surfaces as an error: expected
    this.status = 'failed';
    this.rows = [];
    this.error = error instanceof VigilError ? error : new EngineError(this.doing, { code: ErrorCodes.engineFailure, cause: error });
    this.logger.warn({ err: this.error, code: this.error.code }, `${this.doing} failed`);
  }
}
