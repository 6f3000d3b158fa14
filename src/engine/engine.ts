/**
 * The events engine contract. Adapters: chdb/ (embedded, in process) and, later, clickhouse/
 * (a server or cluster). Both run the same SQL against tables `logs` and `field_catalog`.
 */
import type { StoredLayout } from '../core/index.js';
import type { FieldPathIds } from './encode-event-fields.js';

/** A stored value (D3): strings, and numbers (integers beyond 2^53 arrive as strings). */
export type StoredValue = string | number;

/**
 * What an event's own text gives its row: the columns `encodeEventHead` writes at once, before
 * the event's batch is known. Ingest encodes them as each event is read, so the event's text and
 * values text die young instead of living in the batch until it is written (docs/engine.md,
 * "Writing events").
 */
export interface EventHeadInput {
  /** Which field the timestamp came from, or `''` when ingest time was used. */
  readonly tsField: string;
  /** The event as a JSON object text; for NDJSON input, the line exactly as received. */
  readonly rawJson: string;
  /**
   * The text of every user column's value (strings as they are, numbers in canonical text),
   * joined by NUL. Free-text search (D13) and `**:` run on it and its text index, so they never
   * see column names, JSON escapes or system columns. Ingest's own rows get it from the values
   * (`EventEncoder`); `valuesText` in ingest gives the same text for a flattened event.
   */
  readonly searchText: string;
}

/**
 * Where `insertEvents` writes an event: its lineage and time, and its sequence number, given
 * per batch.
 */
export interface EventPlaceInput {
  readonly tenant: string;
  readonly indexId: string;
  readonly sourceType: string;
  /** Event time, nanoseconds since the epoch (UTC): the field catalog counts fields per day. */
  readonly tsNs: bigint;
  /** Unique within the tenant; with tsNs it is the event's stable `row_id` {t, s}. */
  readonly seq: bigint;
}

/** An event's fields, which `encodeEventFields` encodes as ingest reads the event. */
export interface EventFieldsInput {
  /**
   * The flattened event (query-language D3): path → string or number, in the event's order.
   * Stored in typed slots and the rest maps (docs/engine.md, "Typed slots").
   */
  readonly attrs: Readonly<Record<string, StoredValue>>;
  /** Flattened paths whose value is JSON null: the column exists (`col: *` is true) but holds no value. */
  readonly nullPaths: readonly string[];
}

/** An event's head and fields, encoded: what an `EncodedEventRow` holds besides where it goes. */
export interface EncodedEvent {
  readonly head: Uint8Array;
  readonly fields: Uint8Array;
}

/**
 * Encodes events one at a time as ingest walks each parsed event, a field at a time, so that no
 * flattened object, path string or values text is built on the way (docs/engine.md, "Writing
 * events"). A row is its values and null paths in the event's order (nulls are written after
 * the values), then `endRow`, which also writes the head: its `search_text` is the values'
 * text, which the encoder knows by then. Path ids are those of the writer's `FieldPathIds`.
 * Rows are written one at a time: a row must end (or be discarded) before another starts.
 */
export interface EventEncoder {
  /** A string value of the path `pathId`. */
  string(pathId: number, value: string): void;
  /** A number value of the path `pathId`: Int64 in the catalog when a safe integer, else Float64. */
  number(pathId: number, value: number): void;
  /** A path holding JSON null: the column exists but has no value. */
  null(pathId: number): void;
  /** Forgets what the row wrote so far (the caller encodes the event another way). */
  discardRow(): void;
  /** Ends the row: its fields, and its head of `tsField`, `rawJson` and the values' text. */
  endRow(tsField: string, rawJson: string): EncodedEvent;
}

/** One event ready to be written, already flattened and timestamped by ingest. */
export interface EventRowInput extends EventHeadInput, EventPlaceInput, EventFieldsInput {}

/** Event times from `minTsNs` to `maxTsNs`, both included, in nanoseconds since the epoch. */
export interface TimeSpan {
  readonly minTsNs: bigint;
  readonly maxTsNs: bigint;
}

/** `count` consecutive event sequence numbers from `first` (one batch of an ingestion). */
export interface SequenceRange {
  readonly first: bigint;
  readonly count: number;
}

/** One index of one tenant. */
export interface TenantIndex {
  readonly tenant: string;
  readonly indexId: string;
}

/** The span of the event times a batch writes to one index. */
export interface TimeExtent extends TimeSpan {
  readonly tenant: string;
  readonly indexId: string;
}

/**
 * One event as `insertEvents` takes it: its head (`encodeEventHead`) and fields
 * (`encodeEventFields`), opaque to callers, and where it goes. The fields are placed in columns
 * once the batch's field maps are known (a map may be promoted by the batch).
 */
export interface EncodedEventRow {
  readonly head: Uint8Array;
  readonly fields: Uint8Array;
  /** The ids the fields' paths were encoded with. */
  readonly paths: FieldPathIds;
  readonly event: EventPlaceInput;
}

/**
 * Rows encoded by `encodeEventRow`, and for each index they write to, the span of their times
 * (`timeExtentsOf` builds them). Every row's time must fall in its index's extent: queries leave
 * out time bounds that the extents show to hold every event.
 */
export interface EventBatch {
  readonly rows: readonly EncodedEventRow[];
  readonly extents: readonly TimeExtent[];
}

/** Options of the chDB adapter's constructor (src/engine/chdb). */
export interface ChdbEngineOptions {
  /** Data directory of the embedded engine, e.g. `./data/engine`. */
  readonly path: string;
  /** Sessions that run queries in parallel (one more is kept for KILL QUERY). Default 4. */
  readonly poolSize?: number;
  /** `max_execution_time` of a query that sets none. Default 300 s. */
  readonly maxExecutionTimeS?: number;
  /** `max_memory_usage` of a query that sets none. Default 2 GiB. */
  readonly maxMemoryUsageBytes?: number;
}

/**
 * Whom a statement works for, so the engine can share its capacity fairly: an ad hoc query of a
 * tenant, or a detection window. Statements without one are the service's own (ingest,
 * maintenance, the field catalog) and are never held back. The embedded engine keeps a share of
 * its sessions that ad hoc queries cannot take, and never lets one tenant's ad hoc queries hold
 * them all (docs/engine.md, "Sharing the sessions"); a ClickHouse server schedules on its own.
 */
export type Workload = { readonly kind: 'adhoc'; readonly tenant: string } | { readonly kind: 'detection' };

/** A tenant's ad hoc work (searches, histograms, field values, rule previews and tests): what the engine shares its sessions by. */
export function adhocWorkload(tenant: string): Workload {
  return { kind: 'adhoc', tenant };
}

export interface EngineQueryOptions {
  /** Tag stored as `log_comment`: finds the query for progress and cancellation. */
  readonly tag?: string;
  /** Whom the statement works for; absent: the service's own work. */
  readonly workload?: Workload;
  readonly maxExecutionTimeS?: number;
  readonly maxMemoryUsageBytes?: number;
  /** Extra ClickHouse settings; the adapter appends the SETTINGS clause, so SQL must not have one. */
  readonly settings?: Readonly<Record<string, string | number>>;
  /** Aborting cancels the query in the engine, not just the promise. */
  readonly signal?: AbortSignal;
}

/**
 * How a raw-event statement's answer is read: the statement's columns in order, the one holding
 * each event's stored JSON text, and the parser for the whole answer (the caller's: ingest's
 * exact parser keeps integers beyond 2^53).
 */
export interface EventAnswer {
  readonly columns: readonly string[];
  readonly rawColumn: string;
  readonly parseJson: (text: string) => unknown;
}

export interface EngineQueryStats {
  readonly rowsRead: number;
  readonly bytesRead: number;
  readonly elapsedMs: number;
}

export interface EngineQueryResult<Row> {
  readonly rows: Row[];
  /** Column names in result order. */
  readonly columns: readonly string[];
  readonly stats: EngineQueryStats;
}

/** Progress of a running query, read from `system.processes`. */
export interface RunningQuery {
  readonly tag: string;
  readonly rowsRead: number;
  readonly bytesRead: number;
  readonly elapsedMs: number;
}

/** One column path seen in an index, with the engine types it was stored as. */
export interface FieldInfo {
  readonly path: string;
  readonly types: readonly string[];
  readonly rows: number;
}

export interface IndexStorageStats {
  readonly indexId: string;
  readonly rows: number;
  readonly minTsNs: bigint | null;
  readonly maxTsNs: bigint | null;
  /** Events stamped with their ingest time: no timestamp field of theirs held a time (`tsField` ''). */
  readonly eventsWithoutTime: number;
  /**
   * Bytes on disk of the index's events, estimated: storage parts hold several indexes, so each
   * part's size is shared out by the indexes' shares of its rows.
   */
  readonly bytesOnDisk: number;
}

export interface EngineStorageStats {
  readonly rows: number;
  readonly bytesOnDisk: number;
  readonly uncompressedBytes: number;
  readonly parts: number;
}

export interface Engine {
  /** Creates or upgrades the schema. Idempotent. */
  init(): Promise<void>;
  /** An encoder of events a field at a time, with path ids from `paths` (ingest's way to encode). */
  eventEncoder(paths: FieldPathIds): EventEncoder;
  /**
   * Writes encoded rows durably (fsync) before resolving. One call is one atomic insert of the
   * rows; the batch's time extents and field catalog rows are recorded first
   * (`writtenTimeSpan`), and any field map version the batch promotes.
   */
  insertEvents(batch: EventBatch): Promise<{ rows: number }>;
  /**
   * A span `[minTsNs, maxTsNs]` that holds the time of every event these indexes hold (null:
   * none was ever written). Deletes leave it as wide as it was, except that an adapter may raise
   * its start to a retention cutoff (`deleteEventsBefore`). A batch's times count from before the
   * batch is written, so a statement that finds the span unchanged after it ran saw no event
   * outside it.
   */
  writtenTimeSpan(tenant: string, indexIds: readonly string[]): Promise<TimeSpan | null>;
  /** Runs a SELECT and returns all rows (JSON-typed: 64-bit integers come back as strings). */
  query<Row = Record<string, unknown>>(sql: string, options?: EngineQueryOptions): Promise<EngineQueryResult<Row>>;
  /**
   * Runs a raw-event SELECT whose `answer.rawColumn` holds stored event JSON text: that column
   * comes back parsed (by `answer.parseJson`), read without escaping every event (event-answer.ts).
   */
  queryEvents<Row = Record<string, unknown>>(sql: string, answer: EventAnswer, options?: EngineQueryOptions): Promise<EngineQueryResult<Row>>;
  /** Runs a SELECT and yields row chunks; breaking out of the loop stops the query. */
  stream<Row = Record<string, unknown>>(sql: string, options?: EngineQueryOptions): AsyncIterable<Row[]>;
  /** Runs a statement that returns no rows (DDL, DELETE, KILL). */
  exec(sql: string, options?: EngineQueryOptions): Promise<void>;
  /** Progress of the running query with this tag, or null when none runs. */
  runningQuery(tag: string): Promise<RunningQuery | null>;
  /** Stops the running query with this tag (no-op when none runs). */
  cancel(tag: string): Promise<void>;
  /** Where the columns of these indexes are stored, for the query compiler. */
  fieldLayout(tenant: string, indexIds: readonly string[]): Promise<StoredLayout>;
  /** Column paths of these indexes seen in [fromMs, toMs), merged across days. */
  fieldCatalog(tenant: string, indexIds: readonly string[], fromMs?: number, toMs?: number): Promise<FieldInfo[]>;
  /** Row counts, time span, events without a time of their own and estimated size, per index of a tenant. */
  indexStats(tenant: string, indexIds: readonly string[]): Promise<IndexStorageStats[]>;
  /** How many events these indexes hold with a time in [fromNs, toNs) (a missing bound is open). */
  eventCount(tenant: string, indexIds: readonly string[], fromNs?: bigint, toNs?: bigint): Promise<number>;
  /** Deletes every event of an index (used after the index is deleted). */
  deleteIndexEvents(tenant: string, indexId: string): Promise<void>;
  /**
   * The indexes holding written events whose tenant id starts with the prefix, each once (from the
   * time extents, so cheap): finds the scratch tenants a crash left behind.
   */
  indexesWithEvents(tenantPrefix: string): Promise<TenantIndex[]>;
  /**
   * Deletes the events of an index whose sequence numbers fall in the ranges: the batches of an
   * ingestion that stopped part-way, before it is done again (docs/ingest.md, "Ingest ids").
   * Writes no mutation when none of them is stored.
   */
  deleteEventsBySequence(tenant: string, indexId: string, ranges: readonly SequenceRange[]): Promise<void>;
  /** Deletes the events of an index older than the cutoff (retention). */
  deleteEventsBefore(tenant: string, indexId: string, cutoffNs: bigint): Promise<void>;
  /**
   * Writes a lookup table's rows (cells in file order) under a version; queries read the version
   * the store names (lookup-rows.ts). Durable when it resolves.
   */
  writeLookupRows(tenant: string, tableId: string, version: string, rows: readonly (readonly string[])[]): Promise<void>;
  /** Deletes a lookup table's rows: every version but `keep`, or all of them. */
  deleteLookupRows(tenant: string, tableId: string, keep?: string): Promise<void>;
  /** Disk usage of the events table, for benchmarks and metrics. */
  storageStats(): Promise<EngineStorageStats>;
  /** Forces pending merges so storage figures settle (benchmarks, tests). */
  optimize(): Promise<void>;
  /** Throws when the engine cannot answer a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
