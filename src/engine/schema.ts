/**
 * The events schema, rendered from one template so the single-node tables and the cluster variant
 * (ON CLUSTER, Replicated tables named `*_local`, Distributed tables over them under the names
 * queries use) cannot drift apart.
 */
import { searchWordsExpression, sqlIdentifier } from '../core/index.js';
import { lookupRowsTable } from './lookup-rows.js';

export interface SchemaOptions {
  /**
   * ClickHouse cluster name (`remote_servers`); omitted on one node (chDB, a single server). With
   * it every statement runs `ON CLUSTER`, each table is a Replicated table `<name>_local` (its
   * replica path and name from the servers' defaults and macros) with a Distributed table
   * `<name>` over it, and materialized views fill the local tables from `logs_local`, so every
   * query and insert addresses the same names as on one node.
   */
  readonly cluster?: string;
}

/** Version of the schema this build writes; `init()` upgrades older stores step by step. */
export const schemaVersion = 12;

// Why these choices (measured on chDB 26.7, 2 cores; see docs/engine.md):
// - min_level_for_wide_part = 1: a wide part opens one compression stream per JSON sub-column
//   (~300 for Windows events) and writes ~10x slower, so inserts land compact; merged parts
//   (level >= 1, over 10 MiB) are wide, because compact parts read 4-5x slower (a groupbycount
//   over 5 M events: 1.2 s on the compact parts a load leaves, 0.13 s on wide ones).
// - min_age_to_force_merge_seconds = 3600 (per partition): a week that got no insert for an
//   hour merges into one part, so closed weeks end in the layout queries read fastest.
// - Typed slots and the rest maps (v10) instead of the JSON column attrs of v1-v9: see
//   stringSlotCount below. (Upgraded stores keep attrs, with max_dynamic_paths = 256 and the
//   'advanced' shared-data serialization, for the rows written before.)
// - fsync_after_insert / fsync_part_directory: ingest is acknowledged only once data is durable.
// - PARTITION BY week: few partitions per insert batch; retention deletes rows, not partitions.
// - search_text holds every user value's text (not names, escapes or system columns): free
//   text and `**:` match on it exactly. Its word index search_words (core/search-words.ts) holds
//   the language's words (D9), so it is the exact answer for a one-word term, read from the index
//   alone, and the prefilter of the others. The index is on an expression, not on the column with
//   a preprocessor: with a preprocessor, hasToken answered case-insensitively through the index
//   but case-sensitively without it, so results depended on use_skip_indexes; on the expression
//   both paths agree.
// - field_paths (with its index) lists every column of an event, nulls included (the query
//   language says a null column exists): the prefilter for column existence and rest fields.
// - event_minutes counts events per (tenant, index, minute), filled on insert. An event search
//   sizes its time slices from it: counting per bucket from `logs` read every event's `ts`
//   (150-235 ms on 5 M events, more than a rare-token search costs; docs/benchmarks-journal.md).
const versionTableTemplate = `CREATE TABLE IF NOT EXISTS vigil_schema{{onCluster}} (
  version UInt32,
  applied_at DateTime DEFAULT now()
) ENGINE = {{mergeTree}} ORDER BY version`;

export const logsLayoutSettings =
  'min_bytes_for_wide_part = 10485760, min_level_for_wide_part = 1, min_age_to_force_merge_seconds = 3600, min_age_to_force_merge_on_partition_only = 1';

// The rest maps (v11) are written by merges in 16 buckets by key hash, so reading one path
// (`rest_s['CommandLine']`) decodes a sixteenth of the map's values, not all of them. Measured on
// 1.18 M mixed events (chDB 26.7, 2 cores): a term on a rest column 104 -> 42 ms, with its
// field_paths prefilter 57 -> 24 ms, reading one path of every event 91 -> 29 ms; a merge of the
// week 13.3-15.1 -> 16.7 s (64 buckets: 26-28 s). Parts written by inserts keep the plain layout,
// which costs inserts nothing; only a read of whole maps is slower (which no query issues).
// map_buckets_min_avg_size = 0: the maps hold 2.6 paths per event on average, below the default 32.
export const restMapSettings =
  "map_serialization_version = 'with_buckets', map_serialization_version_for_zero_level_parts = 'basic', map_buckets_strategy = 'constant', max_buckets_in_map = 16, map_buckets_min_avg_size = 0";

// Every merge that writes a wide part writes it column by column (v12): a merge of six parts
// (83 k mixed events, 36 MB) held 1.2 GB of engine memory (about 300 MB resident) writing its
// hundreds of streams (slots, map buckets, indexes) at once, 20 MB column by column. The price
// is CPU: a merge of 79 k Windows events cost 1.2-1.5x as much (docs/engine.md "Merges column
// by column"). The default waits for 131,072 rows, which most merges during an ingest never
// reach.
export const mergeAlgorithmSettings = 'vertical_merge_algorithm_min_rows_to_activate = 1';

// A returned event is read from its compression block: with the default 1 MiB blocks, returning
// the 8 events of a rare word decompressed 8 MiB of raw (6.7 of 19.5 ms). 256 KiB blocks cut that
// to a quarter. An event alone in its granule costs more: the engine decodes raw from the
// granule's start up to it, so a sparse search's events cost about a tenth of a millisecond
// each. LZ4 decodes that several times faster than ZSTD(1): `CommandLine: powershell` (348
// events scattered over 5.25 M) read its raw in 39 ms instead of 65, for raw 1.9x as large on
// disk (668 MB instead of 352 MB; all of logs 2.16 GB instead of 1.86 GB, 0.28 bytes on disk
// per raw byte instead of 0.24). Ingest took the same CPU time with either codec (docs/engine.md).
export const rawColumn = 'raw String CODEC(LZ4) SETTINGS (min_compress_block_size = 16384, max_compress_block_size = 262144)';

// What queries read in bulk is compressed with LZ4, which decodes several times faster than
// ZSTD(1) (measured on 5.25 M events, chDB 26.7, 2 cores): summing every ts took 33 ms instead
// of 65 ms and every seq 14 ms instead of 94 ms (Delta first in both), a regex over a week's
// search_text 416 ms instead of 540 ms, a group-by on a JSON path 18-20 ms instead of 24-34 ms
// per 870 k events. ts and seq are read by every time bound and every sort; search_text and
// attrs by every filter. The cost is disk: ts +50 %, search_text and attrs about twice their
// ZSTD size.
export const fastColumnCodecs = {
  ts: 'CODEC(Delta, LZ4)',
  seq: 'CODEC(Delta, LZ4)',
  search_text: 'CODEC(LZ4)',
  attrs: 'CODEC(LZ4)',
} as const;

/**
 * Typed slots (schema v10, docs/engine.md "Typed slots"): a fixed set of generic columns,
 * Nullable(String) and Nullable(Float64) (D3 stores strings and numbers; numbers are compared as
 * Float64, integers beyond 2^53 arrive as strings). Each index (and source type) maps its frequent
 * fields to slots of their types (field_maps, written by ingest: field-maps.ts), so the table
 * never changes shape and a field another index promoted costs this index only an empty slot.
 * Values without a slot go to `rest_s` (strings) and `rest_n` (numbers), maps of path → value
 * whose lookup of a missing path is NULL; `field_paths` lists every path an event holds (nulls
 * included), for `col: *` and as the prefilter of columns read from the maps. Measured on the
 * layout's first build: Variant slots cost 5x the insert and query time of these, and a flat JSON
 * text for the rest doubled the planning time of statements naming many columns; the JSON column
 * these replace cost most of the insert and its final merge (../shared/notes/ingest-study.md).
 */
export const stringSlotCount = 96;
export const numberSlotCount = 32;
/** field_maps numbers string slots from 0 and number slots from this base. */
export const numberSlotBase = 32_768;

/** Name of a typed slot column: `s<k>` or `n<k>`. */
export function slotColumn(slot: number): string {
  return slot >= numberSlotBase ? `n${slot - numberSlotBase}` : `s${slot}`;
}

/** The slot columns in table order, with their types. */
export const slotColumns: readonly (readonly [string, string])[] = [
  ...Array.from({ length: stringSlotCount }, (_, k) => [slotColumn(k), 'Nullable(String)'] as const),
  ...Array.from({ length: numberSlotCount }, (_, k) => [slotColumn(numberSlotBase + k), 'Nullable(Float64)'] as const),
];

/**
 * `slot` of a field_maps row that holds no slot: the marker row that says an index holds rows of
 * map 0 (written before v10, columns in attrs), or a version that has no slots.
 */
export const noSlot = 65535;

/** The columns of the typed layout, with their types (the insert writes them in this order). */
export const fieldLayoutColumns: readonly (readonly [string, string])[] = [
  ['field_map', 'UInt64'],
  ['field_paths', 'Array(LowCardinality(String))'],
  ['rest_s', 'Map(LowCardinality(String), Nullable(String))'],
  ['rest_n', 'Map(LowCardinality(String), Nullable(Float64))'],
  ...slotColumns,
];

export const fieldLayoutColumnDdl = fieldLayoutColumns.map(([name, type]) => `${name} ${type} ${name === 'field_map' ? 'CODEC(Delta, LZ4)' : 'CODEC(LZ4)'}`);

export const fieldPathsIndex = 'INDEX field_paths_idx field_paths TYPE text(tokenizer = array)';

// field_maps: each index's (and source type's) field → slot maps. A map id is a lineage (high 48
// bits) and a version (low 16): versions of one lineage only add slots, so a field keeps its slot
// from the version that promoted it on. Written before the events that use it; a row with map 0
// is a legacy one (schema v9 and before: its columns are in the JSON column attrs).
export const fieldMapsTable = `CREATE TABLE IF NOT EXISTS field_maps{{onCluster}} (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  source_type LowCardinality(String),
  map_id UInt64,
  path String,
  slot UInt16
) ENGINE = {{mergeTree}}
ORDER BY (tenant, idx, map_id, path)
SETTINGS fsync_after_insert = 1, fsync_part_directory = 1`;

export const searchWordsIndex = `INDEX search_words ${searchWordsExpression} TYPE text(tokenizer = splitByNonAlpha)`;

export const eventMinutesTable = `CREATE TABLE IF NOT EXISTS event_minutes{{onCluster}} (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  minute DateTime('UTC'),
  rows UInt64
) ENGINE = {{summingMergeTree}}
ORDER BY (tenant, idx, minute)`;

export const eventMinutesView = `CREATE MATERIALIZED VIEW IF NOT EXISTS event_minutes_mv{{onCluster}} TO event_minutes AS
SELECT tenant, idx, toStartOfMinute(toDateTime(ts, 'UTC')) AS minute, count() AS rows
FROM logs
GROUP BY tenant, idx, minute`;

// time_extents: per (tenant, index), a span holding every event time written (time-extents.ts).
// Each insert adds its batch's row before writing the events; merges keep one row per index.
// fsync like logs, so the row is on disk before the events it covers are.
export const timeExtentsTable = `CREATE TABLE IF NOT EXISTS time_extents{{onCluster}} (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  min_ts SimpleAggregateFunction(min, DateTime64(9, 'UTC')),
  max_ts SimpleAggregateFunction(max, DateTime64(9, 'UTC'))
) ENGINE = {{aggregatingMergeTree}}
ORDER BY (tenant, idx)
SETTINGS fsync_after_insert = 1, fsync_part_directory = 1`;

export const tablesTemplate = [
  `CREATE TABLE IF NOT EXISTS logs{{onCluster}} (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  ts DateTime64(9, 'UTC') ${fastColumnCodecs.ts},
  seq UInt64 ${fastColumnCodecs.seq},
  source_type LowCardinality(String),
  ts_field LowCardinality(String),
  ${rawColumn},
  search_text String ${fastColumnCodecs.search_text},
  ${fieldLayoutColumnDdl.join(',\n  ')},
  ${searchWordsIndex},
  ${fieldPathsIndex}
) ENGINE = {{mergeTree}}
PARTITION BY toMonday(ts)
ORDER BY (tenant, idx, ts)
SETTINGS index_granularity = 8192, ${logsLayoutSettings}, ${restMapSettings}, ${mergeAlgorithmSettings}, fsync_after_insert = 1, fsync_part_directory = 1`,
  `CREATE TABLE IF NOT EXISTS field_catalog{{onCluster}} (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  day Date,
  path String,
  type LowCardinality(String),
  rows UInt64
) ENGINE = {{summingMergeTree}}
ORDER BY (tenant, idx, day, path, type)`,
  eventMinutesTable,
  eventMinutesView,
  timeExtentsTable,
  lookupRowsTable,
  fieldMapsTable,
] as const;

/** Renders the schema DDL, in creation order (the version table first). */
export function createSchemaStatements(options: SchemaOptions = {}): string[] {
  return renderAll([versionTableTemplate, ...tablesTemplate], options);
}

/** The DDL of `vigil_schema`, which records the applied schema versions. */
export function createVersionTableStatement(options: SchemaOptions = {}): string {
  return render(versionTableTemplate, options);
}

/** The table a mutation (DELETE, OPTIMIZE) must name: the local tables of every shard on a cluster. */
export function mutationTarget(table: string, options: SchemaOptions): string {
  return options.cluster === undefined ? table : `${table}_local ON CLUSTER ${sqlIdentifier(options.cluster)}`;
}

/** Renders statements for `options`: each becomes its cluster form when a cluster is named. */
export function renderAll(statements: readonly string[], options: SchemaOptions): string[] {
  return statements.flatMap((statement) => {
    const rendered = render(statement, options);
    return options.cluster === undefined ? [rendered] : clusterStatements(rendered, options.cluster);
  });
}

function render(statement: string, options: SchemaOptions): string {
  const replicated = options.cluster !== undefined;
  const values: Record<string, string> = {
    onCluster: options.cluster === undefined ? '' : ` ON CLUSTER ${sqlIdentifier(options.cluster)}`,
    mergeTree: replicated ? 'ReplicatedMergeTree' : 'MergeTree',
    summingMergeTree: replicated ? 'ReplicatedSummingMergeTree' : 'SummingMergeTree',
    aggregatingMergeTree: replicated ? 'ReplicatedAggregatingMergeTree' : 'AggregatingMergeTree',
  };
  const text = statement.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    // eslint-disable-next-line no-restricted-syntax -- internal invariant: the templates are ours
    if (value === undefined) throw new Error(`schema template names an unknown placeholder: ${name}`);
    return value;
  });
  // The version table is one for the whole cluster, not one per shard: every replica of every
  // shard shares one path (the UUID is the same on every host of an ON CLUSTER create).
  return replicated && text.startsWith('CREATE TABLE IF NOT EXISTS vigil_schema ')
    ? text.replace('ENGINE = ReplicatedMergeTree ', "ENGINE = ReplicatedMergeTree('/clickhouse/tables/{uuid}/vigil_schema', '{shard}-{replica}') ")
    : text;
}

/**
 * The cluster form of one rendered statement: a table becomes `<name>_local` plus a Distributed
 * `<name>` over it (rows spread at random: every read of these tables aggregates across shards);
 * views fill local tables from `logs_local`; ALTER and TRUNCATE act on the local tables. Written
 * over the rendered text, so it follows whatever layout the templates hold.
 */
function clusterStatements(statement: string, cluster: string): string[] {
  const on = ` ON CLUSTER ${sqlIdentifier(cluster)}`;
  const table = /^CREATE TABLE IF NOT EXISTS (\w+) ON CLUSTER /.exec(statement)?.[1];
  if (table !== undefined && table !== 'vigil_schema') {
    return [
      statement.replace(`EXISTS ${table}${on}`, `EXISTS ${table}_local${on}`),
      `CREATE TABLE IF NOT EXISTS ${table}${on} AS ${table}_local\nENGINE = Distributed(${sqlIdentifier(cluster)}, currentDatabase(), ${table}_local, rand())`,
    ];
  }
  if (statement.startsWith('CREATE MATERIALIZED VIEW ')) {
    return [statement.replace(/ TO (\w+) AS\n/, ' TO $1_local AS\n').replace(/\nFROM (\w+)\n/, '\nFROM $1_local\n')];
  }
  return [statement.replace(/^(ALTER TABLE|TRUNCATE TABLE IF EXISTS) (\w+) ON CLUSTER /, '$1 $2_local ON CLUSTER ')];
}
