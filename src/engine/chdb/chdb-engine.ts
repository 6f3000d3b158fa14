import { silentLogger, type Logger } from '../../core/index.js';
import { encodeEventRow, eventInsertSettings } from '../encode-event-row.js';
import type {
  ChdbEngineOptions,
  Engine,
  EngineQueryOptions,
  EngineQueryResult,
  EngineStorageStats,
  EventRowInput,
  FieldInfo,
  IndexStorageStats,
  RunningQuery,
} from '../engine.js';
import { parseJsonFormatResult } from '../json-format-result.js';
import { buildQuerySettings, defaultQueryLimits, newQueryTag, settingsClause, type QueryLimits } from '../query-settings.js';
import { TableOperations } from '../table-operations.js';
import { SessionRunner } from './session-runner.js';

/**
 * The events engine in process (chDB). Only the async API is used (the sync one blocks the
 * event loop); statements run on a session pool with KILL-based cancellation (SessionRunner),
 * and the SQL is shared with the server adapter (TableOperations, schema, row encoding).
 */
export class ChdbEngine implements Engine {
  private readonly limits: QueryLimits;
  private readonly runner: SessionRunner;
  private readonly tables: TableOperations;

  constructor(options: ChdbEngineOptions, logger: Logger = silentLogger) {
    this.limits = {
      maxExecutionTimeS: options.maxExecutionTimeS ?? defaultQueryLimits.maxExecutionTimeS,
      maxMemoryUsageBytes: options.maxMemoryUsageBytes ?? defaultQueryLimits.maxMemoryUsageBytes,
    };
    this.runner = new SessionRunner(options.path, Math.max(1, options.poolSize ?? 4), logger);
    this.tables = new TableOperations(
      { query: (sql, o) => this.query(sql, o), exec: (sql, o) => this.exec(sql, o), execDdl: (sql) => this.execDdl(sql) },
      logger,
    );
  }

  init(): Promise<void> {
    return this.tables.init();
  }

  encodeEventRow(row: EventRowInput): string {
    return encodeEventRow(row);
  }

  async insertEvents(encodedRows: readonly string[]): Promise<{ rows: number }> {
    if (encodedRows.length === 0) return { rows: 0 };
    const tag = newQueryTag();
    // Durability comes from the table (fsync_after_insert, fsync_part_directory): the promise
    // settles after the part is on disk.
    const values = Buffer.from(encodedRows.join('\n'), 'utf8');
    const settings = { ...eventInsertSettings, log_comment: tag };
    await this.runner.run('inserting events', tag, 'write', undefined, (session) =>
      session.insert({ table: 'logs', values, format: 'JSONEachRow', settings }),
    );
    return { rows: encodedRows.length };
  }

  async query<Row = Record<string, unknown>>(sql: string, options: EngineQueryOptions = {}): Promise<EngineQueryResult<Row>> {
    const { tag, settings } = buildQuerySettings(options, this.limits);
    const statement = sql + settingsClause(settings);
    const text = await this.runner.run('running query', tag, 'read', options.signal, async (session) =>
      (await session.queryAsync(statement, { format: 'JSON' })).text(),
    );
    return parseJsonFormatResult<Row>(text);
  }

  async *stream<Row = Record<string, unknown>>(sql: string, options: EngineQueryOptions = {}): AsyncIterable<Row[]> {
    const { tag, settings } = buildQuerySettings(options, this.limits);
    yield* this.runner.stream<Row>('streaming query', tag, sql + settingsClause(settings), options.signal);
  }

  async exec(sql: string, options: EngineQueryOptions = {}): Promise<void> {
    const { tag, settings } = buildQuerySettings(options, this.limits);
    const statement = sql + settingsClause(settings);
    await this.runner.run('running statement', tag, 'read', options.signal, (session) =>
      session.queryAsync(statement, { format: 'TabSeparated' }),
    );
  }

  /** DDL as written: a trailing SETTINGS clause would be read as table settings. */
  private async execDdl(sql: string): Promise<void> {
    await this.runner.run('changing schema', newQueryTag(), 'write', undefined, (session) =>
      session.queryAsync(sql, { format: 'TabSeparated' }),
    );
  }

  runningQuery(tag: string): Promise<RunningQuery | null> {
    return this.runner.runningQuery(tag);
  }

  cancel(tag: string): Promise<void> {
    return this.runner.cancel(tag);
  }

  fieldCatalog(tenant: string, indexIds: readonly string[], fromMs?: number, toMs?: number): Promise<FieldInfo[]> {
    return this.tables.fieldCatalog(tenant, indexIds, fromMs, toMs);
  }

  indexStats(tenant: string, indexIds: readonly string[]): Promise<IndexStorageStats[]> {
    return this.tables.indexStats(tenant, indexIds);
  }

  deleteIndexEvents(tenant: string, indexId: string): Promise<void> {
    return this.tables.deleteIndexEvents(tenant, indexId);
  }

  deleteEventsBefore(tenant: string, indexId: string, cutoffNs: bigint): Promise<void> {
    return this.tables.deleteEventsBefore(tenant, indexId, cutoffNs);
  }

  storageStats(): Promise<EngineStorageStats> {
    return this.tables.storageStats();
  }

  optimize(): Promise<void> {
    return this.tables.optimize();
  }

  ping(): Promise<void> {
    return this.tables.ping();
  }

  /** Stops running reads, lets writes finish, releases the data directory. Safe to call twice. */
  close(): Promise<void> {
    return this.runner.close();
  }
}
