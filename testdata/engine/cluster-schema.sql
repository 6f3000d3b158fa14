-- createSchemaStatements({ cluster: 'events' })
CREATE TABLE IF NOT EXISTS vigil_schema ON CLUSTER `events` (
  version UInt32,
  applied_at DateTime DEFAULT now()
) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{uuid}/vigil_schema', '{shard}-{replica}') ORDER BY version;

CREATE TABLE IF NOT EXISTS logs_local ON CLUSTER `events` (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  ts DateTime64(9, 'UTC') CODEC(Delta, LZ4),
  seq UInt64 CODEC(Delta, LZ4),
  source_type LowCardinality(String),
  ts_field LowCardinality(String),
  raw String CODEC(LZ4) SETTINGS (min_compress_block_size = 16384, max_compress_block_size = 262144),
  search_text String CODEC(LZ4),
  attrs JSON(max_dynamic_paths = 256) CODEC(LZ4),
  null_paths Array(String) CODEC(ZSTD(1)),
  INDEX search_words replaceAll(lower(search_text), '_', 'Z') TYPE text(tokenizer = splitByNonAlpha),
  INDEX attrs_paths JSONAllPaths(attrs) TYPE text(tokenizer = array)
) ENGINE = ReplicatedMergeTree
PARTITION BY toMonday(ts)
ORDER BY (tenant, idx, ts)
SETTINGS index_granularity = 8192, min_bytes_for_wide_part = 10485760, min_level_for_wide_part = 1, min_age_to_force_merge_seconds = 3600, min_age_to_force_merge_on_partition_only = 1, object_shared_data_serialization_version = 'advanced', fsync_after_insert = 1, fsync_part_directory = 1;

CREATE TABLE IF NOT EXISTS logs ON CLUSTER `events` AS logs_local
ENGINE = Distributed(`events`, currentDatabase(), logs_local, rand());

CREATE TABLE IF NOT EXISTS field_catalog_local ON CLUSTER `events` (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  day Date,
  path String,
  type LowCardinality(String),
  rows UInt64
) ENGINE = ReplicatedSummingMergeTree
ORDER BY (tenant, idx, day, path, type);

CREATE TABLE IF NOT EXISTS field_catalog ON CLUSTER `events` AS field_catalog_local
ENGINE = Distributed(`events`, currentDatabase(), field_catalog_local, rand());

CREATE MATERIALIZED VIEW IF NOT EXISTS field_catalog_mv ON CLUSTER `events` TO field_catalog_local AS
SELECT tenant, idx, toDate(ts) AS day, path_type.1 AS path, path_type.2 AS type, count() AS rows
FROM logs_local
ARRAY JOIN arrayConcat(
  CAST(JSONAllPathsWithTypes(attrs), 'Array(Tuple(String, String))'),
  arrayMap(p -> (p, 'Null'), null_paths)
) AS path_type
GROUP BY tenant, idx, day, path, type;

CREATE TABLE IF NOT EXISTS event_minutes_local ON CLUSTER `events` (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  minute DateTime('UTC'),
  rows UInt64
) ENGINE = ReplicatedSummingMergeTree
ORDER BY (tenant, idx, minute);

CREATE TABLE IF NOT EXISTS event_minutes ON CLUSTER `events` AS event_minutes_local
ENGINE = Distributed(`events`, currentDatabase(), event_minutes_local, rand());

CREATE MATERIALIZED VIEW IF NOT EXISTS event_minutes_mv ON CLUSTER `events` TO event_minutes_local AS
SELECT tenant, idx, toStartOfMinute(toDateTime(ts, 'UTC')) AS minute, count() AS rows
FROM logs_local
GROUP BY tenant, idx, minute;

CREATE TABLE IF NOT EXISTS time_extents_local ON CLUSTER `events` (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  min_ts SimpleAggregateFunction(min, DateTime64(9, 'UTC')),
  max_ts SimpleAggregateFunction(max, DateTime64(9, 'UTC'))
) ENGINE = ReplicatedAggregatingMergeTree
ORDER BY (tenant, idx)
SETTINGS fsync_after_insert = 1, fsync_part_directory = 1;

CREATE TABLE IF NOT EXISTS time_extents ON CLUSTER `events` AS time_extents_local
ENGINE = Distributed(`events`, currentDatabase(), time_extents_local, rand());

CREATE TABLE IF NOT EXISTS lookup_rows_local ON CLUSTER `events` (
  tenant LowCardinality(String),
  table_id String,
  version String,
  row UInt32,
  cells Array(String)
) ENGINE = ReplicatedMergeTree
ORDER BY (tenant, table_id, version, row)
SETTINGS fsync_after_insert = 1, fsync_part_directory = 1;

CREATE TABLE IF NOT EXISTS lookup_rows ON CLUSTER `events` AS lookup_rows_local
ENGINE = Distributed(`events`, currentDatabase(), lookup_rows_local, rand());

-- schema v2
ALTER TABLE logs_local ON CLUSTER `events` ADD COLUMN IF NOT EXISTS search_text String CODEC(ZSTD(1)) AFTER raw;

ALTER TABLE logs_local ON CLUSTER `events` ADD INDEX IF NOT EXISTS search_txt lower(search_text) TYPE text(tokenizer = splitByNonAlpha);

ALTER TABLE logs_local ON CLUSTER `events` DROP INDEX IF EXISTS raw_txt;

-- schema v3
ALTER TABLE logs_local ON CLUSTER `events` MODIFY SETTING min_bytes_for_wide_part = 10485760, min_level_for_wide_part = 1, min_age_to_force_merge_seconds = 3600, min_age_to_force_merge_on_partition_only = 1;

CREATE TABLE IF NOT EXISTS event_minutes_local ON CLUSTER `events` (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  minute DateTime('UTC'),
  rows UInt64
) ENGINE = ReplicatedSummingMergeTree
ORDER BY (tenant, idx, minute);

CREATE TABLE IF NOT EXISTS event_minutes ON CLUSTER `events` AS event_minutes_local
ENGINE = Distributed(`events`, currentDatabase(), event_minutes_local, rand());

TRUNCATE TABLE IF EXISTS event_minutes_local ON CLUSTER `events`;

CREATE MATERIALIZED VIEW IF NOT EXISTS event_minutes_mv ON CLUSTER `events` TO event_minutes_local AS
SELECT tenant, idx, toStartOfMinute(toDateTime(ts, 'UTC')) AS minute, count() AS rows
FROM logs_local
GROUP BY tenant, idx, minute;

INSERT INTO event_minutes SELECT tenant, idx, toStartOfMinute(toDateTime(ts, 'UTC')) AS minute, count() AS rows FROM logs GROUP BY tenant, idx, minute;

-- schema v4
ALTER TABLE logs_local ON CLUSTER `events` DROP INDEX IF EXISTS search_txt SETTINGS mutations_sync = 0;

ALTER TABLE logs_local ON CLUSTER `events` ADD INDEX IF NOT EXISTS search_words replaceAll(lower(search_text), '_', 'Z') TYPE text(tokenizer = splitByNonAlpha);

ALTER TABLE logs_local ON CLUSTER `events` MATERIALIZE INDEX search_words SETTINGS mutations_sync = 0;

-- schema v5
ALTER TABLE logs_local ON CLUSTER `events` MODIFY COLUMN raw String CODEC(LZ4) SETTINGS (min_compress_block_size = 16384, max_compress_block_size = 262144);

-- schema v6
ALTER TABLE logs_local ON CLUSTER `events` MODIFY COLUMN ts CODEC(Delta, LZ4), MODIFY COLUMN seq CODEC(Delta, LZ4), MODIFY COLUMN search_text CODEC(LZ4), MODIFY COLUMN attrs CODEC(LZ4);

-- schema v7
CREATE TABLE IF NOT EXISTS time_extents_local ON CLUSTER `events` (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  min_ts SimpleAggregateFunction(min, DateTime64(9, 'UTC')),
  max_ts SimpleAggregateFunction(max, DateTime64(9, 'UTC'))
) ENGINE = ReplicatedAggregatingMergeTree
ORDER BY (tenant, idx)
SETTINGS fsync_after_insert = 1, fsync_part_directory = 1;

CREATE TABLE IF NOT EXISTS time_extents ON CLUSTER `events` AS time_extents_local
ENGINE = Distributed(`events`, currentDatabase(), time_extents_local, rand());

INSERT INTO time_extents SELECT tenant, idx, fromUnixTimestamp64Nano(min(toUnixTimestamp64Nano(ts)), 'UTC'), fromUnixTimestamp64Nano(max(toUnixTimestamp64Nano(ts)), 'UTC')
FROM logs GROUP BY tenant, idx;

-- schema v8
ALTER TABLE logs_local ON CLUSTER `events` MODIFY COLUMN raw String CODEC(LZ4) SETTINGS (min_compress_block_size = 16384, max_compress_block_size = 262144);

-- schema v9
CREATE TABLE IF NOT EXISTS lookup_rows_local ON CLUSTER `events` (
  tenant LowCardinality(String),
  table_id String,
  version String,
  row UInt32,
  cells Array(String)
) ENGINE = ReplicatedMergeTree
ORDER BY (tenant, table_id, version, row)
SETTINGS fsync_after_insert = 1, fsync_part_directory = 1;

CREATE TABLE IF NOT EXISTS lookup_rows ON CLUSTER `events` AS lookup_rows_local
ENGINE = Distributed(`events`, currentDatabase(), lookup_rows_local, rand());
