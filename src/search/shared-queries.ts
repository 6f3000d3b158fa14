/**
 * Ad hoc queries shared by every server of a deployment (docs/scale-out.md). The server that
 * runs a query records it in the shared store, writes its progress and result there, and polls
 * for cancel requests, so `query_progress` and `cancel_query` answer through any server.
 * The store is reached through a port (SharedQueryRecords), implemented by admin over the
 * store's query records.
 */
import { EngineError, ErrorCodes, VigilError, messageOf, type Clock, type ErrorCode, type Logger } from '../core/index.js';
import type { DecodedRow, ResultRow } from './decode-rows.js';
import type { QueryRun, QuerySnapshot, QueryStatus } from './query-run.js';

/** A query as the shared store holds it; result and error are this module's JSON text. */
export interface SharedQueryRecord {
  readonly id: string;
  readonly tenant: string;
  readonly status: QueryStatus;
  readonly result: string | null;
  readonly bytesScanned: number;
  readonly truncated: boolean;
  readonly error: string | null;
  /** The owner's last write: its heartbeat while the query runs. */
  readonly updatedAtMs: number;
}

/** What the search service needs of the shared store. */
export interface SharedQueryRecords {
  create(id: string, tenant: string, atMs: number): Promise<void>;
  write(id: string, progress: Omit<SharedQueryRecord, 'id' | 'tenant' | 'updatedAtMs'>, atMs: number): Promise<void>;
  read(id: string): Promise<SharedQueryRecord | null>;
  heartbeat(ids: readonly string[], atMs: number): Promise<void>;
  requestCancel(id: string, atMs: number): Promise<void>;
  cancelRequested(ids: readonly string[]): Promise<string[]>;
  deleteExpired(finishedBeforeMs: number, silentBeforeMs: number): Promise<void>;
}

export interface SharedQuerySettings {
  /** How long a finished query still answers progress. */
  readonly resultTtlMs: number;
  /** How often the owner looks for cancel requests and writes progress. */
  readonly pollIntervalMs: number;
}

/** An owner silent for this long (no heartbeat) has stopped: its running queries will not finish. */
const ownerSilentMs = 30_000;
/** A running query's intermediate rows and bytes are written at most this often. */
const progressIntervalMs = 1000;
const sweepIntervalMs = 60_000;

interface Tracked {
  readonly run: QueryRun;
  lastWrittenMs: number;
  lastRows: number;
  lastBytes: number;
}

export class SharedQueries {
  private readonly running = new Map<string, Tracked>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private lastSweepMs = 0;

  constructor(
    private readonly records: SharedQueryRecords,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: SharedQuerySettings,
  ) {}

  /** Records a query this server runs before its id is handed out, and keeps its record current until it ends. */
  async track(run: QueryRun, tenant: string): Promise<void> {
    await this.records.create(run.id, tenant, this.clock.nowMs());
    this.running.set(run.id, { run, lastWrittenMs: this.clock.nowMs(), lastRows: 0, lastBytes: 0 });
    this.startPolling();
    void run.done.then(async () => {
      this.running.delete(run.id);
      await this.write(run).catch((error: unknown) => this.logger.error({ qr_id: run.id, err: messageOf(error) }, 'recording a finished query failed'));
    });
  }

  /** The query's tenant and what it holds now, or null when unknown or expired. */
  async read(qrId: string): Promise<{ tenant: string; snapshot: QuerySnapshot } | null> {
    const record = await this.records.read(qrId);
    if (record === null) return null;
    if (record.status === 'running' && record.updatedAtMs < this.clock.nowMs() - ownerSilentMs) {
      const error = new EngineError(`the server running query ${qrId} stopped answering; start the query again`, { code: ErrorCodes.unavailable });
      return { tenant: record.tenant, snapshot: { ...decodeResult(record.result), status: 'failed', bytesScanned: record.bytesScanned, truncated: record.truncated, error } };
    }
    return {
      tenant: record.tenant,
      snapshot: { ...decodeResult(record.result), status: record.status, bytesScanned: record.bytesScanned, truncated: record.truncated, error: decodeError(record.error) },
    };
  }

  /** Asks the server running the query to cancel it (it polls for requests). */
  requestCancel(qrId: string): Promise<void> {
    return this.records.requestCancel(qrId, this.clock.nowMs());
  }

  /** Stops polling (server shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
  }

  private startPolling(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.polling ??= this.poll()
        .catch((error: unknown) => this.logger.warn({ err: messageOf(error) }, 'updating shared query records failed'))
        .finally(() => {
          this.polling = null;
        });
    }, this.settings.pollIntervalMs);
    this.timer.unref();
  }

  /** Cancels what was asked, writes progress that changed, marks the rest alive, forgets what expired. */
  private async poll(): Promise<void> {
    const now = this.clock.nowMs();
    if (now - this.lastSweepMs >= sweepIntervalMs) {
      this.lastSweepMs = now;
      await this.records.deleteExpired(now - this.settings.resultTtlMs, now - 2 * ownerSilentMs);
    }
    const ids = [...this.running.keys()];
    if (ids.length === 0) return;
    for (const id of await this.records.cancelRequested(ids)) this.running.get(id)?.run.cancel();
    const quiet: string[] = [];
    for (const tracked of this.running.values()) {
      const { rows, bytesScanned } = tracked.run.snapshot();
      const changed = rows.length !== tracked.lastRows || bytesScanned !== tracked.lastBytes;
      if (changed && now - tracked.lastWrittenMs >= progressIntervalMs) {
        tracked.lastRows = rows.length;
        tracked.lastBytes = bytesScanned;
        tracked.lastWrittenMs = now;
        await this.write(tracked.run);
      } else if (now - tracked.lastWrittenMs >= ownerSilentMs / 6) {
        tracked.lastWrittenMs = now;
        quiet.push(tracked.run.id);
      }
    }
    if (quiet.length > 0) await this.records.heartbeat(quiet, now);
  }

  private write(run: QueryRun): Promise<void> {
    const snapshot = run.snapshot();
    return this.records.write(
      run.id,
      {
        status: snapshot.status,
        result: encodeResult(snapshot),
        bytesScanned: snapshot.bytesScanned,
        truncated: snapshot.truncated,
        error: snapshot.error === null ? null : JSON.stringify({ code: snapshot.error.code, message: snapshot.error.message, field: snapshot.error.field ?? null }),
      },
      this.clock.nowMs(),
    );
  }
}

interface EncodedResult {
  readonly kind: 'events' | 'table';
  readonly columns: readonly string[];
  readonly rows: readonly { readonly rowId: DecodedRow['rowId']; readonly columns: ResultRow }[];
}

// Table values are strings, numbers and nulls; JSON has no NaN or infinities, so those travel tagged.
const numberTag = '$number';

/** The snapshot's table as JSON text. */
export function encodeResult(snapshot: Pick<QuerySnapshot, 'kind' | 'columns' | 'rows'>): string {
  const result: EncodedResult = { kind: snapshot.kind, columns: snapshot.columns, rows: snapshot.rows.map((row) => ({ rowId: row.rowId, columns: row.columns })) };
  return JSON.stringify(result, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? { [numberTag]: String(value) } : value));
}

/** The table of encodeResult's text (an empty event table for none). */
export function decodeResult(text: string | null): Pick<QuerySnapshot, 'kind' | 'columns' | 'rows'> {
  if (text === null) return { kind: 'events', columns: [], rows: [] };
  const parsed = JSON.parse(text, (_key, value: unknown) =>
    typeof value === 'object' && value !== null && Object.keys(value).length === 1 && numberTag in value ? Number((value as Record<string, string>)[numberTag]) : value,
  ) as EncodedResult;
  return {
    kind: parsed.kind,
    columns: parsed.columns,
    // Rows are null-prototype objects, as decodeRows makes them, so any column name is a plain key.
    rows: parsed.rows.map((row) => ({ rowId: row.rowId, columns: Object.assign(Object.create(null) as ResultRow, row.columns) })),
  };
}

function decodeError(text: string | null): VigilError | null {
  if (text === null) return null;
  const { code, message, field } = JSON.parse(text) as { code: ErrorCode; message: string; field: string | null };
  return new VigilError(code, message, field === null ? {} : { field });
}
