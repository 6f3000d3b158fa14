import { EngineError, type Logger } from '../core/index.js';
import type { EngineQueryOptions, EngineQueryResult, EngineStorageStats, FieldInfo, IndexStorageStats, SequenceRange, TenantIndex, TimeExtent, TimeSpan } from './engine.js';
import { createVersionTableStatement, mutationTarget, type SchemaOptions } from './schema.js';
import { schemaMigrations } from './schema-migrations.js';
import { catalogDaysExact } from './catalog-days.js';
import type { CatalogRow } from './lineage-paths.js';
import type { FieldMapRow } from './field-maps.js';
import { sqlInteger, sqlString, sqlStringList, sqlTimestampMs, sqlTimestampNs } from '../core/index.js';

/** What `writeCatalog` sends per row: the day as a time in nanoseconds, for the engine to file. */
const catalogInputStructure = 'tenant String, idx String, ns Int64, path String, type String, rows UInt64';

/** What the shared operations need from an adapter: run SQL, with and without its settings. */
export interface SqlRunner {
  query<Row = Record<string, unknown>>(sql: string, options?: EngineQueryOptions): Promise<EngineQueryResult<Row>>;
  exec(sql: string, options?: EngineQueryOptions): Promise<void>;
  /** Runs DDL as written: a trailing SETTINGS clause would be read as table settings. */
  execDdl(sql: string): Promise<void>;
}

/**
 * The Engine methods that are plain SQL over `logs` and `field_catalog`, written once for every
 * adapter (chDB in process, a ClickHouse server over HTTP).
 */
export class TableOperations {
  private initializing: Promise<void> | null = null;

  constructor(
    private readonly runner: SqlRunner,
    private readonly logger: Logger,
    private readonly schema: SchemaOptions = {},
  ) {}

  /** Creates the schema or applies the steps newer than the recorded version. */
  init(): Promise<void> {
    // Concurrent callers share one run, so a version is never recorded twice.
    this.initializing ??= this.upgrade().finally(() => {
      this.initializing = null;
    });
    return this.initializing;
  }

  private async upgrade(): Promise<void> {
    await this.runner.execDdl(createVersionTableStatement(this.schema));
    const current = await this.appliedVersion();
    const migrations = schemaMigrations(this.schema);
    const latest = migrations.at(-1)?.version ?? 0;
    if (current > latest) {
      throw new EngineError(`engine schema version ${current} is newer than this build supports (${latest})`);
    }
    if (current === 0) {
      // The first step creates the latest shape; the later ones only bring older stores to it
      // (some start background work, like building an index for stored parts).
      for (const statement of migrations[0]?.statements ?? []) await this.runner.execDdl(statement);
      const versions = migrations.map((m) => sqlInteger(m.version)).join(', ');
      await this.runner.exec(`INSERT INTO vigil_schema (version) SELECT arrayJoin([${versions}])`);
      this.logger.info({ version: latest }, 'engine schema created');
      return;
    }
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements) await this.runner.execDdl(statement);
      await this.runner.exec(`INSERT INTO vigil_schema (version) SELECT ${sqlInteger(migration.version)}`);
      this.logger.info({ version: migration.version }, 'engine schema upgraded');
    }
  }

  private async appliedVersion(): Promise<number> {
    const result = await this.runner.query<{ version: number | string }>('SELECT max(version) AS version FROM vigil_schema');
    return Number(result.rows[0]?.version ?? 0);
  }

  /**
   * Paths of the indexes seen in [fromMs, toMs), to day granularity, merged across days. A range
   * reaching outside the days a Date holds reads every day (catalog-days.ts).
   */
  async fieldCatalog(tenant: string, indexIds: readonly string[], fromMs?: number, toMs?: number): Promise<FieldInfo[]> {
    if (indexIds.length === 0) return [];
    const where = [`tenant = ${sqlString(tenant)}`, `idx IN ${sqlStringList(indexIds)}`];
    const byDay = fromMs === undefined || toMs === undefined || catalogDaysExact(fromMs, toMs);
    if (fromMs !== undefined && byDay) where.push(`day >= toDate(${sqlTimestampMs(fromMs)})`);
    // toMs is exclusive: the last day that can hold an event is the day of toMs - 1 ms.
    if (toMs !== undefined && byDay) where.push(`day <= toDate(${sqlTimestampMs(toMs - 1)})`);
    const result = await this.runner.query<{ path: string; types: string[]; rows: string }>(
      `SELECT path, arraySort(groupUniqArray(type)) AS types, sum(rows) AS rows FROM field_catalog
WHERE ${where.join(' AND ')} GROUP BY path ORDER BY path`,
    );
    return result.rows.map((row) => ({ path: row.path, types: row.types, rows: Number(row.rows) }));
  }

  /**
   * Adds a batch's field catalog rows (before its events, like the time extents: a query never
   * sees a stored (path, type) the catalog lacks). The day is the engine's `toDate` of a time in
   * it, as the catalog view of schema v9 filed it.
   */
  async writeCatalog(rows: readonly CatalogRow[]): Promise<void> {
    if (rows.length === 0) return;
    // The rows as one string literal, read by the JSONEachRow parser. As tuple literals (an
    // arrayJoin of them) the statement alone cost the engine's parser and analyzer more: 150 rows
    // 19-31 against 8-22 ms of CPU, 400 rows 39-47 against 24-28. Within a batch's write the
    // insert's own cost hides the difference. The day is still the engine's toDate.
    const lines = rows.map((r) => JSON.stringify({ tenant: r.tenant, idx: r.indexId, ns: String(r.dayNs), path: r.path, type: r.type, rows: r.rows }));
    // A SELECT, not VALUES: the adapter appends a SETTINGS clause, which VALUES would read as data.
    await this.runner.exec(
      `INSERT INTO field_catalog (tenant, idx, day, path, type, rows)
SELECT tenant, idx, toDate(fromUnixTimestamp64Nano(ns, 'UTC')), path, type, rows
FROM format(JSONEachRow, '${catalogInputStructure}', ${sqlString(lines.join('\n'))})`,
    );
  }

  /** The field map rows of some indexes (field-maps.ts). */
  async readFieldMaps(tenant: string, indexIds: readonly string[]): Promise<FieldMapRow[]> {
    if (indexIds.length === 0) return [];
    const result = await this.runner.query<{ idx: string; source_type: string; map_id: string; path: string; slot: number }>(
      `SELECT DISTINCT idx, source_type, toString(map_id) AS map_id, path, slot FROM field_maps
WHERE tenant = ${sqlString(tenant)} AND idx IN ${sqlStringList(indexIds)}`,
    );
    return result.rows.map((row) => ({ tenant, indexId: row.idx, sourceType: row.source_type, mapId: BigInt(row.map_id), path: row.path, slot: Number(row.slot) }));
  }

  /** Writes one version of a field map (before any row that uses it). */
  async writeFieldMaps(rows: readonly FieldMapRow[]): Promise<void> {
    if (rows.length === 0) return;
    const tuples = rows.map(
      (r) => `(${sqlString(r.tenant)}, ${sqlString(r.indexId)}, ${sqlString(r.sourceType)}, ${sqlInteger(r.mapId)}, ${sqlString(r.path)}, ${sqlInteger(r.slot)})`,
    );
    await this.runner.exec(
      `INSERT INTO field_maps (tenant, idx, source_type, map_id, path, slot)
SELECT m.1, m.2, m.3, toUInt64(m.4), m.5, toUInt16(m.6) FROM (SELECT arrayJoin([${tuples.join(', ')}]) AS m)`,
    );
  }

  /** Records the extents of a batch about to be written (before it is: see Engine.writtenTimeSpan). */
  async widenTimeExtents(extents: readonly TimeExtent[]): Promise<void> {
    if (extents.length === 0) return;
    const rows = extents.map((e) => `SELECT ${sqlString(e.tenant)}, ${sqlString(e.indexId)}, ${sqlTimestampNs(e.minTsNs)}, ${sqlTimestampNs(e.maxTsNs)}`);
    await this.runner.exec(`INSERT INTO time_extents (tenant, idx, min_ts, max_ts) ${rows.join(' UNION ALL ')}`);
  }

  /**
   * Per index, the span of every event time written to it (time_extents); none for an index never written.
   *
   * min and max of times are taken over their nanoseconds (Int64), here and in indexStats: once
   * ClickHouse 26.7 JIT-compiles min/max of a DateTime64 (the third time a statement aggregates
   * them), it compares the values as unsigned, so a time before 1970 became the latest.
   */
  async writtenTimeSpans(tenant: string, indexIds: readonly string[]): Promise<Map<string, TimeSpan>> {
    if (indexIds.length === 0) return new Map();
    const result = await this.runner.query<{ idx: string; min_ns: string; max_ns: string }>(
      `SELECT idx, toString(min(toUnixTimestamp64Nano(min_ts))) AS min_ns, toString(max(toUnixTimestamp64Nano(max_ts))) AS max_ns
FROM time_extents WHERE tenant = ${sqlString(tenant)} AND idx IN ${sqlStringList(indexIds)} GROUP BY idx`,
    );
    return new Map(result.rows.map((row) => [row.idx, { minTsNs: BigInt(row.min_ns), maxTsNs: BigInt(row.max_ns) }]));
  }

  /** The (tenant, index) pairs with recorded time extents, of tenants whose id starts with the prefix. */
  async indexesWithEvents(tenantPrefix: string): Promise<TenantIndex[]> {
    const result = await this.runner.query<{ tenant: string; idx: string }>(
      `SELECT DISTINCT tenant, idx FROM time_extents WHERE startsWith(tenant, ${sqlString(tenantPrefix)}) ORDER BY tenant, idx`,
    );
    return result.rows.map((row) => ({ tenant: row.tenant, indexId: row.idx }));
  }

  /**
   * Row count, time span and events without a time of their own of each requested index (zero
   * and nulls for an empty one), with its bytes on disk estimated: a part's size is shared out by
   * the indexes' shares of its rows (parts hold several indexes once merged).
   */
  async indexStats(tenant: string, indexIds: readonly string[]): Promise<IndexStorageStats[]> {
    if (indexIds.length === 0) return [];
    const result = await this.runner.query<{ idx: string; rows: string; untimed: string; min_ns: string; max_ns: string; bytes: number | string }>(
      `SELECT c.idx AS idx, sum(c.n) AS rows, sum(c.untimed) AS untimed, toString(min(c.min_ns)) AS min_ns,
  toString(max(c.max_ns)) AS max_ns, sum(if(p.rows = 0, 0, p.bytes_on_disk * c.n / p.rows)) AS bytes
FROM (SELECT idx, _part AS part, count() AS n, countIf(ts_field = '') AS untimed, min(toUnixTimestamp64Nano(ts)) AS min_ns, max(toUnixTimestamp64Nano(ts)) AS max_ns
  FROM logs WHERE tenant = ${sqlString(tenant)} AND idx IN ${sqlStringList(indexIds)} GROUP BY idx, part) AS c
LEFT JOIN (SELECT name, rows, bytes_on_disk FROM system.parts WHERE database = currentDatabase() AND table = '${this.schema.cluster === undefined ? 'logs' : 'logs_local'}' AND active) AS p ON c.part = p.name
GROUP BY c.idx`,
    );
    const found = new Map(result.rows.map((row) => [row.idx, row]));
    return [...new Set(indexIds)].map((indexId) => {
      const row = found.get(indexId);
      if (!row || Number(row.rows) === 0) return { indexId, rows: 0, minTsNs: null, maxTsNs: null, eventsWithoutTime: 0, bytesOnDisk: 0 };
      return {
        indexId,
        rows: Number(row.rows),
        minTsNs: BigInt(row.min_ns),
        maxTsNs: BigInt(row.max_ns),
        eventsWithoutTime: Number(row.untimed),
        bytesOnDisk: Math.round(Number(row.bytes)),
      };
    });
  }

  /** Events of the indexes with a time in [fromNs, toNs); a missing bound is open. */
  async eventCount(tenant: string, indexIds: readonly string[], fromNs?: bigint, toNs?: bigint): Promise<number> {
    if (indexIds.length === 0) return 0;
    const where = [`tenant = ${sqlString(tenant)}`, `idx IN ${sqlStringList(indexIds)}`];
    if (fromNs !== undefined) where.push(`ts >= ${sqlTimestampNs(fromNs)}`);
    if (toNs !== undefined) where.push(`ts < ${sqlTimestampNs(toNs)}`);
    const result = await this.runner.query<{ n: string }>(`SELECT count() AS n FROM logs WHERE ${where.join(' AND ')}`);
    return Number(result.rows[0]?.n ?? 0);
  }

  /** Deletes an index's events, its catalog rows and minute counts (lightweight DELETE, synchronous). */
  async deleteIndexEvents(tenant: string, indexId: string): Promise<void> {
    const where = `tenant = ${sqlString(tenant)} AND idx = ${sqlString(indexId)}`;
    await this.runner.exec(`DELETE FROM ${this.local('logs')} WHERE ${where}`);
    await this.runner.exec(`DELETE FROM ${this.local('field_catalog')} WHERE ${where}`);
    await this.runner.exec(`DELETE FROM ${this.local('event_minutes')} WHERE ${where}`);
    await this.runner.exec(`DELETE FROM ${this.local('time_extents')} WHERE ${where}`);
    await this.runner.exec(`DELETE FROM ${this.local('field_maps')} WHERE ${where}`);
  }

  /**
   * Deletes an index's events in the sequence ranges. The catalog and minute counts keep them:
   * both may only be a superset (they size and expand searches, they never answer them).
   */
  async deleteEventsBySequence(tenant: string, indexId: string, ranges: readonly SequenceRange[]): Promise<void> {
    if (ranges.length === 0) return;
    const where = `tenant = ${sqlString(tenant)} AND idx = ${sqlString(indexId)} AND (${ranges
      .map((r) => `seq BETWEEN ${r.first.toString()} AND ${(r.first + BigInt(Math.max(r.count, 1)) - 1n).toString()}`)
      .join(' OR ')})`;
    // As for retention: a DELETE matching nothing is still a mutation, so probe first.
    const found = await this.runner.query<{ n: string }>(`SELECT count() AS n FROM (SELECT 1 FROM logs WHERE ${where} LIMIT 1)`);
    if (Number(found.rows[0]?.n ?? 0) === 0) return;
    await this.runner.exec(`DELETE FROM ${this.local('logs')} WHERE ${where}`);
  }

  /**
   * Deletes an index's events older than the cutoff. Catalog rows go only for days wholly
   * before the cutoff: the cutoff's own day may still hold newer events.
   */
  async deleteEventsBefore(tenant: string, indexId: string, cutoffNs: bigint): Promise<void> {
    const where = `tenant = ${sqlString(tenant)} AND idx = ${sqlString(indexId)}`;
    // A DELETE is a mutation even when nothing matches (seconds on a busy engine, and shutdown
    // waits for it); retention runs every few minutes, and most runs find nothing old enough.
    // The primary key answers this probe from one granule.
    const older = await this.runner.query<{ n: string }>(`SELECT count() AS n FROM (SELECT 1 FROM logs WHERE ${where} AND ts < ${sqlTimestampNs(cutoffNs)} LIMIT 1)`);
    if (Number(older.rows[0]?.n ?? 0) === 0) return;
    await this.runner.exec(`DELETE FROM ${this.local('logs')} WHERE ${where} AND ts < ${sqlTimestampNs(cutoffNs)}`);
    // A cutoff outside the days a Date holds would wrap (a cutoff in 1926 reads as a day in 2115 and
    // would delete the rows of every kept event): the rows stay, a harmless superset.
    const cutoffMs = Number(cutoffNs / 1_000_000n);
    if (catalogDaysExact(cutoffMs, cutoffMs)) {
      await this.runner.exec(`DELETE FROM ${this.local('field_catalog')} WHERE ${where} AND day < toDate(${sqlTimestampNs(cutoffNs)})`);
    }
    // Only minutes wholly before the cutoff: the counts only size search slices.
    await this.runner.exec(`DELETE FROM ${this.local('event_minutes')} WHERE ${where} AND minute < toStartOfMinute(toDateTime(${sqlTimestampNs(cutoffNs)}, 'UTC'))`);
  }

  /** Active parts of `logs`: rows, disk and uncompressed bytes, part count. */
  async storageStats(): Promise<EngineStorageStats> {
    const result = await this.runner.query<{ rows: string; disk: string; uncompressed: string; parts: string }>(
      `SELECT sum(rows) AS rows, sum(bytes_on_disk) AS disk, sum(data_uncompressed_bytes) AS uncompressed, count() AS parts
FROM ${this.schema.cluster === undefined ? "system.parts WHERE table = 'logs'" : `cluster(${sqlString(this.schema.cluster)}, system.parts) WHERE table = 'logs_local'`}
  AND database = currentDatabase() AND active`,
    );
    const row = result.rows[0];
    return {
      rows: Number(row?.rows ?? 0),
      bytesOnDisk: Number(row?.disk ?? 0),
      uncompressedBytes: Number(row?.uncompressed ?? 0),
      parts: Number(row?.parts ?? 0),
    };
  }

  /** Merges every partition of both tables down to one part (benchmarks and tests). */
  async optimize(): Promise<void> {
    await this.runner.exec(`OPTIMIZE TABLE ${this.local('logs')} FINAL`);
    await this.runner.exec(`OPTIMIZE TABLE ${this.local('field_catalog')} FINAL`);
  }

  /** Where mutations of a table go: the table, or on a cluster its local tables on every shard. */
  private local(table: string): string {
    return mutationTarget(table, this.schema);
  }

  /** Throws unless the engine answers a trivial query. */
  async ping(): Promise<void> {
    const result = await this.runner.query<{ ok: number }>('SELECT 1 AS ok');
    if (Number(result.rows[0]?.ok) !== 1) throw new EngineError('pinging engine: unexpected answer');
  }
}
