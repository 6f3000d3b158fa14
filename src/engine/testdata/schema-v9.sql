-- The engine schema of v9 (the last with the JSON column attrs), as createSchemaStatements() of
-- commit 55d35fd rendered it: the upgrade test builds a v9 store from it.
CREATE TABLE IF NOT EXISTS vigil_schema (
  version UInt32,
  applied_at DateTime DEFAULT now()
) ENGINE = MergeTree ORDER BY version;

CREATE TABLE IF NOT EXISTS logs (
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
) ENGINE = MergeTree
PARTITION BY toMonday(ts)
ORDER BY (tenant, idx, ts)
SETTINGS index_granularity = 8192, min_bytes_for_wide_part = 10485760, min_level_for_wide_part = 1, min_age_to_force_merge_seconds = 3600, min_age_to_force_merge_on_partition_only = 1, object_shared_data_serialization_version = 'advanced', fsync_after_insert = 1, fsync_part_directory = 1;

CREATE TABLE IF NOT EXISTS field_catalog (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  day Date,
  path String,
  type LowCardinality(String),
  rows UInt64
) ENGINE = SummingMergeTree
ORDER BY (tenant, idx, day, path, type);

CREATE MATERIALIZED VIEW IF NOT EXISTS field_catalog_mv TO field_catalog AS
SELECT tenant, idx, toDate(ts) AS day, path_type.1 AS path, path_type.2 AS type, count() AS rows
FROM logs
ARRAY JOIN arrayConcat(
  CAST(JSONAllPathsWithTypes(attrs), 'Array(Tuple(String, String))'),
  arrayMap(p -> (p, 'Null'), null_paths)
) AS path_type
GROUP BY tenant, idx, day, path, type;

CREATE TABLE IF NOT EXISTS event_minutes (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  minute DateTime('UTC'),
  rows UInt64
) ENGINE = SummingMergeTree
ORDER BY (tenant, idx, minute);

CREATE MATERIALIZED VIEW IF NOT EXISTS event_minutes_mv TO event_minutes AS
SELECT tenant, idx, toStartOfMinute(toDateTime(ts, 'UTC')) AS minute, count() AS rows
FROM logs
GROUP BY tenant, idx, minute;

CREATE TABLE IF NOT EXISTS time_extents (
  tenant LowCardinality(String),
  idx LowCardinality(String),
  min_ts SimpleAggregateFunction(min, DateTime64(9, 'UTC')),
  max_ts SimpleAggregateFunction(max, DateTime64(9, 'UTC'))
) ENGINE = AggregatingMergeTree
ORDER BY (tenant, idx)
SETTINGS fsync_after_insert = 1, fsync_part_directory = 1;

CREATE TABLE IF NOT EXISTS lookup_rows (
  tenant LowCardinality(String),
  table_id String,
  version String,
  row UInt32,
  cells Array(String)
) ENGINE = MergeTree
ORDER BY (tenant, table_id, version, row)
SETTINGS fsync_after_insert = 1, fsync_part_directory = 1;
