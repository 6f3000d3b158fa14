import type { Logger, StoredLayout } from '../core/index.js';
import { SlabEventEncoder } from './encode-event.js';
import { EventBlockEncoder } from './encode-event-block.js';
import { FieldMapStore } from './field-map-store.js';
import { eventAnswerFormat, eventAnswerSettings, parseEventAnswer } from './event-answer.js';
import type {
  Engine,
  EngineQueryOptions,
  EngineQueryResult,
  EngineStorageStats,
  EventAnswer,
  EncodedEventRow,
  EventBatch,
  EventEncoder,
  EventRowInput,
  FieldInfo,
  IndexStorageStats,
  RunningQuery,
  SequenceRange,
  TenantIndex,
  TimeExtent,
  TimeSpan,
} from './engine.js';
import { mutationTarget, type SchemaOptions } from './schema.js';
import { parseJsonCompactResult, queryResultFormat } from './json-format-result.js';
import { TableOperations } from './table-operations.js';
import { GroupCommit, type GroupCommitOptions } from './group-commit.js';
import type { CatalogRow } from './lineage-paths.js';
import { deleteLookupRows, insertLookupRows } from './lookup-rows.js';
import { joinSpans } from './time-extents.js';
import type { TimeSpanCache } from './time-span-cache.js';

/** An encoded batch waiting for its group's insert. */
interface PendingBatch {
  readonly extents: readonly TimeExtent[];
  readonly catalog: readonly CatalogRow[];
  readonly chunks: readonly Uint8Array[];
  /** Its extents and catalog rows are written. */
  described: boolean;
}

/**
 * Two inserts in flight, as before groups (the CLI's two pieces each keep one busy); a group
 * holds at most 64 MiB of blocks, the default batch's size, so it costs the engine no more memory
 * than one batch written alone.
 */
const insertGroups: GroupCommitOptions = { concurrency: 2, maxGroupBytes: 64 * 1024 * 1024 };

/**
 * What every adapter shares: row encoding and the schema, catalog and maintenance statements
 * (TableOperations), run through the adapter's own query/exec. An adapter supplies only how a
 * statement reaches ClickHouse and comes back as text (`answer`), how it is cancelled, and how
 * it closes.
 */
export abstract class TableBackedEngine implements Engine {
  private readonly tables: TableOperations;
  /** Given when every write to the store goes through this process: the written time spans are then kept in memory. */
  private readonly spans: TimeSpanCache | null;
  private readonly fieldMaps: FieldMapStore;
  private readonly blocks = new EventBlockEncoder();
  private readonly commits = new GroupCommit<PendingBatch>((batches) => this.writeBatches(batches), insertGroups);

  protected constructor(
    protected readonly logger: Logger,
    private readonly schema: SchemaOptions = {},
    options: { readonly spans?: TimeSpanCache } = {},
  ) {
    this.spans = options.spans ?? null;
    // The closures run only after construction, so subclass fields are set by then.
    this.tables = new TableOperations({ query: (sql, o) => this.query(sql, o), exec: (sql, o) => this.exec(sql, o), execDdl: (sql) => this.execDdl(sql) }, logger, schema);
    // With a span cache every write goes through this process (the chDB data dir is locked).
    this.fieldMaps = new FieldMapStore(
      { read: (tenant, ids) => this.tables.readFieldMaps(tenant, ids), write: (rows) => this.tables.writeFieldMaps(rows) },
      { exclusiveWriter: this.spans !== null },
    );
  }

  /** Writes a Native block of `eventInsertColumns` (byte chunks, one after another) to `logs` as one insert, durably. */
  protected abstract insertBlock(chunks: readonly Uint8Array[]): Promise<void>;
  abstract stream<Row = Record<string, unknown>>(sql: string, options?: EngineQueryOptions): AsyncIterable<Row[]>;
  abstract exec(sql: string, options?: EngineQueryOptions): Promise<void>;
  abstract runningQuery(tag: string): Promise<RunningQuery | null>;
  abstract cancel(tag: string): Promise<void>;
  abstract close(): Promise<void>;
  /** Runs schema DDL (no per-query limits apply). */
  protected abstract execDdl(sql: string): Promise<void>;
  /** Runs a SELECT with the per-query settings and limits and returns its answer in `format`. */
  protected abstract answer(sql: string, format: string, options: EngineQueryOptions): Promise<string>;

  async query<Row = Record<string, unknown>>(sql: string, options: EngineQueryOptions = {}): Promise<EngineQueryResult<Row>> {
    return parseJsonCompactResult<Row>(await this.answer(sql, queryResultFormat, options));
  }

  async queryEvents<Row = Record<string, unknown>>(sql: string, answer: EventAnswer, options: EngineQueryOptions = {}): Promise<EngineQueryResult<Row>> {
    const settings = { ...options.settings, ...eventAnswerSettings(answer) };
    const parsed = parseEventAnswer<Row>(await this.answer(sql, eventAnswerFormat, { ...options, settings }), answer);
    if (parsed !== null) return parsed;
    // Some stored raw text is not JSON (ingest never writes such): ask for each raw text apart.
    this.logger.warn({ tag: options.tag }, 'an event answer was not valid JSON; reading it again as escaped text');
    return this.query<Row>(sql, options);
  }

  async insertEvents(batch: EventBatch): Promise<{ rows: number }> {
    if (batch.rows.length === 0) return { rows: 0 };
    const { item, bytes } = await this.encodeBatch(batch);
    await this.commits.commit(item, bytes);
    return { rows: batch.rows.length };
  }

  /**
   * Writes batches as one insert (as far as a group's bytes allow), each encoded as
   * `insertEvents` would alone, and settles with each batch's own outcome: a batch the engine
   * cannot read fails alone, and no batch's catalog rows are written twice. The ingest journal's
   * way to write the requests it acknowledged (journal/ingest-journal.ts).
   */
  async insertEventGroup(batches: readonly EventBatch[]): Promise<PromiseSettledResult<void>[]> {
    const items: { item: PendingBatch; bytes: number }[] = [];
    // One after another: a batch may promote fields that the next is then written with.
    for (const batch of batches) if (batch.rows.length > 0) items.push(await this.encodeBatch(batch));
    const outcomes = await this.commits.commitAll(items);
    let at = 0;
    return batches.map((batch) => (batch.rows.length > 0 ? (outcomes[at++] as PromiseSettledResult<void>) : { status: 'fulfilled', value: undefined }));
  }

  private async encodeBatch(batch: EventBatch): Promise<{ item: PendingBatch; bytes: number }> {
    // The field maps first (a batch may promote fields, writing a new version before any row uses it).
    const maps = await this.fieldMaps.mapsFor(batch.rows);
    const encoded = this.blocks.encode(batch.rows, maps.maps);
    await this.fieldMaps.learn(maps, encoded.catalog);
    const bytes = encoded.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    return { item: { extents: batch.extents, catalog: encoded.catalog, chunks: encoded.chunks, described: false }, bytes };
  }

  /** Writes the batches of a group (group-commit.ts) as one insert of their blocks, one after another. */
  private async writeBatches(batches: readonly PendingBatch[]): Promise<void> {
    // The extents and the catalog go first: a query that finds the extents unchanged after its
    // statement saw none of these rows outside them, and the catalog lists what any row holds.
    // A batch written again alone, after its group failed, is described already: its catalog
    // rows are counts, which a second write would double. The only writer of its store writes
    // extent rows in whole minutes, and none the table holds already (time-span-cache.ts).
    const undescribed = batches.filter((batch) => !batch.described);
    if (undescribed.length > 0) {
      const extents = undescribed.flatMap((batch) => batch.extents);
      this.spans?.widen(extents);
      const rows = this.spans?.rowsToWrite(extents) ?? extents;
      await this.tables.widenTimeExtents(rows);
      this.spans?.recorded(rows);
      await this.tables.writeCatalog(undescribed.flatMap((batch) => batch.catalog));
      for (const batch of undescribed) batch.described = true;
    }
    await this.insertBlock(batches.flatMap((batch) => batch.chunks));
  }

  fieldLayout(tenant: string, indexIds: readonly string[]): Promise<StoredLayout> {
    return this.fieldMaps.layout(tenant, indexIds);
  }

  async writtenTimeSpan(tenant: string, indexIds: readonly string[]): Promise<TimeSpan | null> {
    const readTable = (ids: readonly string[]) => this.tables.writtenTimeSpans(tenant, ids);
    if (this.spans) return this.spans.span(tenant, indexIds, readTable);
    return [...(await readTable(indexIds)).values()].reduce<TimeSpan | null>(joinSpans, null);
  }

  init(): Promise<void> {
    return this.tables.init();
  }

  async writeLookupRows(tenant: string, tableId: string, version: string, rows: readonly (readonly string[])[]): Promise<void> {
    // As written: `exec` appends a SETTINGS clause, which after VALUES would be read as data.
    for (const statement of insertLookupRows(tenant, tableId, version, rows)) await this.execDdl(statement);
  }

  deleteLookupRows(tenant: string, tableId: string, keep?: string): Promise<void> {
    return this.exec(deleteLookupRows(tenant, tableId, keep, mutationTarget('lookup_rows', this.schema)));
  }

  eventEncoder(): EventEncoder {
    return new SlabEventEncoder();
  }

  fieldCatalog(tenant: string, indexIds: readonly string[], fromMs?: number, toMs?: number): Promise<FieldInfo[]> {
    return this.tables.fieldCatalog(tenant, indexIds, fromMs, toMs);
  }

  indexStats(tenant: string, indexIds: readonly string[]): Promise<IndexStorageStats[]> {
    return this.tables.indexStats(tenant, indexIds);
  }

  eventCount(tenant: string, indexIds: readonly string[], fromNs?: bigint, toNs?: bigint): Promise<number> {
    return this.tables.eventCount(tenant, indexIds, fromNs, toNs);
  }

  async deleteIndexEvents(tenant: string, indexId: string): Promise<void> {
    await this.tables.deleteIndexEvents(tenant, indexId);
    this.spans?.forget(tenant, indexId);
    this.fieldMaps.forget(tenant, indexId);
    this.blocks.forget(tenant, indexId);
  }

  indexesWithEvents(tenantPrefix: string): Promise<TenantIndex[]> {
    return this.tables.indexesWithEvents(tenantPrefix);
  }

  deleteEventsBySequence(tenant: string, indexId: string, ranges: readonly SequenceRange[]): Promise<void> {
    // The written time span may stay wider than the events left: spans may always be wider.
    return this.tables.deleteEventsBySequence(tenant, indexId, ranges);
  }

  async deleteEventsBefore(tenant: string, indexId: string, cutoffNs: bigint): Promise<void> {
    const deleteBefore = () => this.tables.deleteEventsBefore(tenant, indexId, cutoffNs);
    if (this.spans === null) return deleteBefore();
    // The span is read first so that it can be narrowed after: retention would otherwise leave
    // it reaching back to the first event ever written, and no range would hold it.
    await this.writtenTimeSpan(tenant, [indexId]);
    await this.spans.narrowAfter(tenant, indexId, cutoffNs, deleteBefore);
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
}
