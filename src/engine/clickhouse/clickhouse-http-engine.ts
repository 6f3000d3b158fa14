import { EngineError, ErrorCodes, messageOf, silentLogger, type Logger } from '../../core/index.js';
import { eventInsertColumnList, eventInsertSettings } from '../encode-event-row.js';
import type { EngineQueryOptions, RunningQuery } from '../engine.js';
import { buildQuerySettings, defaultQueryLimits, newQueryTag, settingsClause, type QueryLimits, type SettingValue } from '../query-settings.js';
import type { SchemaOptions } from '../schema.js';
import { sqlString } from '../../core/index.js';
import { TableBackedEngine } from '../table-backed-engine.js';
import { cancelledError, toEngineError } from '../to-engine-error.js';
import { ClickHouseHttpClient } from './clickhouse-http-client.js';

export interface ClickHouseHttpEngineOptions {
  /** HTTP interface, e.g. `http://user:password@host:8123/?database=vigil`. */
  readonly url: string;
  /** Overrides the URL's `database` parameter; default `default`. */
  readonly database?: string;
  readonly username?: string;
  readonly password?: string;
  /** `max_execution_time` of a query that sets none. Default 300 s. */
  readonly maxExecutionTimeS?: number;
  /** `max_memory_usage` of a query that sets none. Default 2 GiB. */
  readonly maxMemoryUsageBytes?: number;
  /** Cluster variant of the schema (ON CLUSTER, Replicated `*_local` tables, Distributed tables over them). */
  readonly schema?: SchemaOptions;
}

/**
 * The events engine on a ClickHouse server, over its HTTP interface with global fetch. The SQL
 * (schema, row encoding, catalog and maintenance statements) is the chDB adapter's; only the
 * transport differs. Cancellation is the same `KILL QUERY` by `log_comment` tag, plus closing
 * the connection, which stops a read-only query on the server.
 */
export class ClickHouseHttpEngine extends TableBackedEngine {
  private readonly client: ClickHouseHttpClient;
  private readonly limits: QueryLimits;
  /** Settings every statement carries: on a cluster, inserts return once the shards hold the rows (durable, visible). */
  private readonly clusterSettings: Readonly<Record<string, SettingValue>>;
  private closed = false;

  constructor(options: ClickHouseHttpEngineOptions, logger: Logger = silentLogger) {
    super(logger, options.schema);
    this.client = new ClickHouseHttpClient(options);
    this.clusterSettings = options.schema?.cluster === undefined ? {} : { distributed_foreground_insert: 1 };
    this.limits = {
      maxExecutionTimeS: options.maxExecutionTimeS ?? defaultQueryLimits.maxExecutionTimeS,
      maxMemoryUsageBytes: options.maxMemoryUsageBytes ?? defaultQueryLimits.maxMemoryUsageBytes,
    };
  }

  protected async insertBlock(chunks: readonly Uint8Array[]): Promise<void> {
    const settings: Record<string, SettingValue> = { ...eventInsertSettings, ...this.clusterSettings, log_comment: newQueryTag(), wait_end_of_query: 1, async_insert: 0 };
    const body = Buffer.concat(chunks);
    checkInsertBodyStart(body);
    await this.send('inserting events', `INSERT INTO logs ${eventInsertColumnList} FORMAT Native`, { settings, body });
  }

  protected async answer(sql: string, format: string, options: EngineQueryOptions): Promise<string> {
    const { tag, settings } = buildQuerySettings(options, this.limits);
    return this.send('running query', sql + settingsClause(settings), { format, tag, signal: options.signal });
  }

  async *stream<Row = Record<string, unknown>>(sql: string, options: EngineQueryOptions = {}): AsyncIterable<Row[]> {
    const context = 'streaming query';
    this.checkOpen();
    const { tag, settings } = buildQuerySettings(options, this.limits);
    const { signal } = options;
    const connection = new AbortController();
    const onAbort = () => {
      connection.abort();
      void this.cancel(tag).catch(() => undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let finished = false;
    try {
      if (signal?.aborted) throw cancelledError(context);
      const lines = this.client.streamLines(sql + settingsClause(settings), {
        format: 'JSONEachRow',
        settings: { cancel_http_readonly_queries_on_client_close: 1 },
        signal: connection.signal,
      });
      for await (const batch of lines) {
        if (batch.length > 0) yield batch.map((line) => JSON.parse(line) as Row);
      }
      finished = true;
    } catch (error) {
      throw toEngineError(context, error, signal?.aborted ?? false);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!finished) {
        // The consumer stopped early: drop the connection and kill the query for good measure.
        connection.abort();
        await this.cancel(tag).catch(() => undefined);
      }
    }
  }

  async exec(sql: string, options: EngineQueryOptions = {}): Promise<void> {
    const { tag, settings } = buildQuerySettings({ ...options, settings: { ...this.clusterSettings, ...options.settings } }, this.limits);
    await this.send('running statement', sql + settingsClause(settings), { tag, signal: options.signal });
  }

  protected async execDdl(sql: string): Promise<void> {
    await this.send('changing schema', sql, {});
  }

  async runningQuery(tag: string): Promise<RunningQuery | null> {
    const result = await this.query<{ n: string; read_rows: string; read_bytes: string; elapsed: number }>(
      `SELECT count() AS n, sum(read_rows) AS read_rows, sum(read_bytes) AS read_bytes, max(elapsed) AS elapsed
FROM system.processes WHERE Settings['log_comment'] = ${sqlString(tag)}`,
    );
    const row = result.rows[0];
    if (!row || Number(row.n) === 0) return null;
    return { tag, rowsRead: Number(row.read_rows), bytesRead: Number(row.read_bytes), elapsedMs: Number(row.elapsed) * 1000 };
  }

  async cancel(tag: string): Promise<void> {
    await this.send('cancelling query', `KILL QUERY WHERE Settings['log_comment'] = ${sqlString(tag)} ASYNC`, {});
  }

  /** Nothing to release (fetch pools its own connections); later calls fail as unavailable. */
  async close(): Promise<void> {
    this.closed = true;
  }

  private checkOpen(): void {
    if (this.closed) throw new EngineError('engine is closed', { code: ErrorCodes.unavailable });
  }

  /** Sends one statement; aborting kills it on the server and drops the connection. */
  private async send(
    context: string,
    sql: string,
    options: { format?: string; tag?: string; signal?: AbortSignal; settings?: Record<string, SettingValue>; body?: string | Uint8Array },
  ): Promise<string> {
    this.checkOpen();
    const { signal, tag } = options;
    if (signal?.aborted) throw cancelledError(context);
    const connection = new AbortController();
    const onAbort = () => {
      connection.abort();
      if (tag !== undefined) void this.cancel(tag).catch(() => undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.client.send(sql, { ...options, signal: connection.signal });
    } catch (error) {
      if (signal?.aborted) throw toEngineError(context, error, true);
      if (error instanceof TypeError) {
        throw new EngineError(`${context}: clickhouse unreachable: ${messageOf(error)}`, { code: ErrorCodes.unavailable, cause: error });
      }
      throw toEngineError(context, error);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * ClickHouse reads an HTTP body as the continuation of its `query` parameter and skips whitespace
 * after `FORMAT <name>` before the data (ClickHouse issue 44167, answered "not a bug"; chDB's
 * inline insert does the same, bench/chdb-binary-insert-repro.cjs), so a body whose first byte is
 * whitespace would be read one byte short. A Native block starts with its column count, 140 (the
 * byte 0x8c); should that ever be 9 to 13 or 32, the insert is refused here rather than misread.
 */
export function checkInsertBodyStart(body: Uint8Array): void {
  const first = body[0];
  if (first === 0x20 || (first !== undefined && first >= 0x09 && first <= 0x0d)) {
    throw new EngineError(`inserting events: the body starts with the whitespace byte 0x${first.toString(16).padStart(2, '0')}, which ClickHouse would skip`, {
      code: ErrorCodes.engineFailure,
    });
  }
}
