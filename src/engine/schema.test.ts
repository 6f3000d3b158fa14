import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSchemaStatements, createVersionTableStatement, mutationTarget, schemaVersion } from './schema.js';
import { schemaMigrations } from './schema-migrations.js';

describe('schema template', () => {
  it('renders the single-node schema: version table, logs, catalog (written by ingest), minute counts and their view, extents, lookup rows, field maps', () => {
    const statements = createSchemaStatements();
    expect(statements.map((s) => /^CREATE (?:TABLE|MATERIALIZED VIEW) IF NOT EXISTS (\w+) /.exec(s)?.[1])).toEqual([
      'vigil_schema',
      'logs',
      'field_catalog',
      'event_minutes',
      'event_minutes_mv',
      'time_extents',
      'lookup_rows',
      'field_maps',
    ]);
    expect(statements.join('\n')).not.toMatch(/\{\{|ON CLUSTER|Replicated/);
    expect(statements[1]).toContain('ENGINE = MergeTree\n');
    expect(statements[1]).toContain(
      "min_bytes_for_wide_part = 10485760, min_level_for_wide_part = 1, min_age_to_force_merge_seconds = 3600, min_age_to_force_merge_on_partition_only = 1, map_serialization_version = 'with_buckets', map_serialization_version_for_zero_level_parts = 'basic', map_buckets_strategy = 'constant', max_buckets_in_map = 16, map_buckets_min_avg_size = 0, vertical_merge_algorithm_min_rows_to_activate = 1, fsync_after_insert = 1, fsync_part_directory = 1",
    );
    expect(statements[2]).toContain('ENGINE = SummingMergeTree\n');
  });

  it('renders the cluster variant from the same template: Replicated *_local tables, Distributed tables over them, views on the local tables', () => {
    const single = createSchemaStatements();
    const cluster = createSchemaStatements({ cluster: 'events' });
    for (const statement of cluster) expect(statement).toMatch(/^CREATE [A-Z ]+ IF NOT EXISTS \w+ ON CLUSTER `events` /);
    const names = cluster.map((s) => /^CREATE (?:TABLE|MATERIALIZED VIEW) IF NOT EXISTS (\w+) /.exec(s)?.[1]);
    expect(names).toEqual([
      'vigil_schema',
      'logs_local',
      'logs',
      'field_catalog_local',
      'field_catalog',
      'event_minutes_local',
      'event_minutes',
      'event_minutes_mv',
      'time_extents_local',
      'time_extents',
      'lookup_rows_local',
      'lookup_rows',
      'field_maps_local',
      'field_maps',
    ]);
    // Each local table is the single-node table under its cluster name: same columns, indexes, settings.
    const normalize = (s: string) =>
      s
        .replace(' ON CLUSTER `events`', '')
        .replace(/Replicated/g, '')
        .replace(/(\w+)_local\b/g, '$1');
    const locals = cluster.filter((s) => !/ENGINE = Distributed\(/.test(s)).map(normalize);
    expect(locals.map((s) => s.replace(/ENGINE = MergeTree\('[^)]*\) /, 'ENGINE = MergeTree '))).toEqual(single);
  });

  it('cluster DDL matches its golden file (UPDATE_GOLDEN=1 rewrites it)', () => {
    const text = [
      "-- createSchemaStatements({ cluster: 'events' })",
      ...createSchemaStatements({ cluster: 'events' }).map((s) => `${s};\n`),
      ...schemaMigrations({ cluster: 'events' })
        .slice(1)
        .flatMap((m) => [`-- schema v${m.version}`, ...m.statements.map((s) => `${s};\n`)]),
    ].join('\n');
    const file = fileURLToPath(new URL('../../testdata/engine/cluster-schema.sql', import.meta.url));
    if (process.env.UPDATE_GOLDEN) writeFileSync(file, text);
    expect(text).toBe(readFileSync(file, 'utf8'));
  });

  it('a mutation on a cluster names the local tables on every shard', () => {
    expect(mutationTarget('logs', {})).toBe('logs');
    expect(mutationTarget('logs', { cluster: 'events' })).toBe('logs_local ON CLUSTER `events`');
  });

  it('migrations end at the current version; the first creates everything but the version table', () => {
    const migrations = schemaMigrations();
    expect(migrations.at(-1)?.version).toBe(schemaVersion);
    expect([createVersionTableStatement(), ...(migrations[0]?.statements ?? [])]).toEqual(createSchemaStatements());
  });

  it('later migrations are idempotent, so a fresh store that already has their shape passes through', () => {
    for (const statement of schemaMigrations()
      .slice(1)
      .flatMap((m) => m.statements)) {
      expect(statement).toMatch(
        /^(ALTER TABLE \w+ (ADD|DROP) (COLUMN|INDEX) IF (NOT )?EXISTS |ALTER TABLE logs MODIFY SETTING |ALTER TABLE logs MODIFY COLUMN raw String |ALTER TABLE logs MODIFY COLUMN IF EXISTS ts CODEC\(Delta, LZ4\), MODIFY COLUMN IF EXISTS seq CODEC\(Delta, LZ4\), MODIFY COLUMN IF EXISTS search_text CODEC\(LZ4\), MODIFY COLUMN IF EXISTS attrs CODEC\(LZ4\)$|ALTER TABLE logs MATERIALIZE INDEX \w+ SETTINGS mutations_sync = 0$|CREATE (TABLE|MATERIALIZED VIEW) IF NOT EXISTS |DROP VIEW IF EXISTS field_catalog_mv$|TRUNCATE TABLE IF EXISTS event_minutes$|INSERT INTO (event_minutes|time_extents|field_maps) SELECT )/,
      );
    }
  });
});
