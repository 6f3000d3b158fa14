/**
 * The query bench's data: a Vigil data dir loaded from the replay file through the product's
 * own ingest path (in process, as `vigil ingest` does), cached under `.bench/` with a marker
 * written only after a complete load, and the same NDJSON decompressed for ripgrep.
 */
import { cpSync, createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { cliActor } from '../src/services/index.js';
import { loadConfig } from '../src/config/index.js';
import { ChdbEngine } from '../src/engine/chdb/index.js';
import { schemaVersion, type Engine } from '../src/engine/index.js';
import { openRuntime, type Runtime } from '../src/runtime.js';
import { diskUsageBytes } from './disk-usage.js';
import type { ReplayFile } from './replay.js';

/**
 * Bump when the loaded data for the same replay file would differ (tenant, index, settling, the
 * stored layout). 2: loaded by engine schema v5 (word index built on insert, raw in 256 KiB
 * compression blocks, merged parts wide); the l1 data dir had been upgraded in place from a
 * pre-release v3 that never applied the wide-part and forced-merge settings.
 */
const loadVersion = 2;

export const benchTenant = 'bench';
export const benchIndex = 'replay';

/** What a complete load wrote to `loaded.json`; its presence is what makes the dir reusable. */
export interface LoadMarker {
  readonly loadVersion: number;
  readonly replayFile: string;
  readonly ingested: number;
  readonly rejected: number;
  readonly rawBytes: number;
  readonly loadSeconds: number;
  /** Waiting, after the last insert, until no background merge ran for a while. */
  readonly settleSeconds: number;
  readonly partsAfterLoad: number;
  readonly parts: number;
  readonly rows: number;
  readonly bytesOnDisk: number;
  readonly uncompressedBytes: number;
  readonly duBytes: number | null;
  /** ISO time the load ended: events without a time of their own carry about this time. */
  readonly loadedAt: string;
}

export interface LoadedDataDir {
  readonly dataDir: string;
  readonly marker: LoadMarker;
  /** True when this call loaded it, false when it came from the cache. */
  readonly loaded: boolean;
}

/** The product runtime over a bench data dir: config from defaults only, quiet logs. */
export function openBenchRuntime(dataDir: string): Promise<Runtime> {
  // No environment and cwd = the data dir, so no VIGIL_* variable or vigil.config.json of the caller applies.
  const absolute = resolve(dataDir);
  const config = loadConfig({ dataDir: absolute, logLevel: 'warn' }, {}, absolute);
  return openRuntime(config, { withEngine: true });
}

/** The loaded data dir for this replay file, ingesting it first when there is no complete one. */
export async function ensureLoadedDataDir(repoDir: string, replay: ReplayFile, log: (line: string) => void): Promise<LoadedDataDir> {
  const base = basename(replay.path)
    .replace(/^replay-/, '')
    .replace(/\.ndjson\.gz$/, '');
  const dataDir = join(repoDir, '.bench', `query-${base}-l${loadVersion}`);
  const markerPath = join(dataDir, 'loaded.json');
  if (existsSync(markerPath)) return { dataDir, marker: JSON.parse(readFileSync(markerPath, 'utf8')) as LoadMarker, loaded: false };

  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  log(`loading ${replay.meta.events} events into ${dataDir} through IngestService (in process; cached for reruns) …`);
  const runtime = await openBenchRuntime(dataDir);
  try {
    const started = performance.now();
    let nextReport = 500_000;
    const { summary } = await runtime.services.ingest!.ingest(
      {
        tenantId: benchTenant,
        index: benchIndex,
        createIndex: true,
        onProgress: (p) => {
          if (p.ingested < nextReport) return;
          nextReport += 500_000;
          const seconds = (performance.now() - started) / 1000;
          log(`  ${p.ingested} events in ${seconds.toFixed(0)} s (${Math.round(p.ingested / seconds)}/s)`);
        },
      },
      createReadStream(replay.path, { highWaterMark: 1 << 20 }),
      cliActor,
    );
    const loadSeconds = (performance.now() - started) / 1000;
    log(`  ${summary.ingested} ingested, ${summary.rejected} rejected in ${loadSeconds.toFixed(0)} s; waiting for background merges to settle …`);
    const partsAfterLoad = (await runtime.engine!.storageStats()).parts;
    // Steady state as a running server reaches it on its own: background merges only, no OPTIMIZE FINAL.
    const settleSeconds = await waitForBackgroundWork(runtime.engine!, log, 3);
    const stats = await runtime.engine!.storageStats();
    const marker: LoadMarker = {
      loadVersion,
      replayFile: basename(replay.path),
      ingested: summary.ingested,
      rejected: summary.rejected,
      rawBytes: summary.bytes,
      loadSeconds: round1(loadSeconds),
      settleSeconds: round1(settleSeconds),
      partsAfterLoad,
      parts: stats.parts,
      rows: stats.rows,
      bytesOnDisk: stats.bytesOnDisk,
      uncompressedBytes: stats.uncompressedBytes,
      duBytes: diskUsageBytes(join(dataDir, 'engine')),
      loadedAt: new Date().toISOString(),
    };
    writeFileSync(markerPath, `${JSON.stringify(marker, null, 2)}\n`);
    return { dataDir, marker, loaded: true };
  } finally {
    await runtime.close();
  }
}

/**
 * Waits until the engine does no background work on `logs` (merges, and mutations such as a
 * schema upgrade's index build) for `quietPolls` polls 5 s apart, or 30 minutes. Returns the
 * seconds waited: 0 when the first poll found nothing to wait for.
 */
async function waitForBackgroundWork(engine: Engine, log: (line: string) => void, quietPolls: number): Promise<number> {
  const started = performance.now();
  let quiet = 0;
  let busySeen = false;
  for (;;) {
    const result = await engine.query<{ mutations: string; merges: string; parts: string }>(
      "SELECT (SELECT count() FROM system.mutations WHERE table = 'logs' AND NOT is_done) AS mutations, (SELECT count() FROM system.merges WHERE table = 'logs') AS merges, (SELECT count() FROM system.parts WHERE table = 'logs' AND active) AS parts",
    );
    const { mutations, merges, parts } = result.rows[0] ?? { mutations: '0', merges: '0', parts: '0' };
    const busy = Number(mutations) + Number(merges) > 0;
    if (busy) log(`  ${mutations} mutation(s) and ${merges} merge(s) running, ${parts} active parts`);
    busySeen ||= busy;
    quiet = busy ? 0 : quiet + 1;
    if (quiet >= quietPolls || performance.now() - started > 30 * 60_000) break;
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  return busySeen || quietPolls > 1 ? (performance.now() - started) / 1000 : 0;
}

/** The data dir as it will be timed: what the schema upgrade waited for, and the parts it now holds. */
export interface CurrentLayout {
  /** Seconds waited for the upgrade's background work (0 when nothing was pending). */
  readonly waitedSeconds: number;
  /**
   * Active parts of `logs` now. It can be fewer than the load marker's: a partition idle for an
   * hour is merged by the engine itself whenever the dir is open (min_age_to_force_merge_seconds).
   */
  readonly activeParts: number;
}

/**
 * Brings a cached data dir to this build's engine schema and waits for the background work an
 * upgrade starts (schema v4 builds its word index for stored parts with a mutation), so timings
 * never overlap it; then counts the parts the timings will read.
 */
export async function ensureCurrentSchema(dataDir: string, log: (line: string) => void): Promise<CurrentLayout> {
  const engine = new ChdbEngine({ path: join(dataDir, 'engine'), poolSize: 1, maxExecutionTimeS: 7200 });
  try {
    await engine.init();
    const waitedSeconds = await waitForBackgroundWork(engine, log, 1);
    const parts = await engine.query<{ n: string }>("SELECT count() AS n FROM system.parts WHERE table = 'logs' AND active");
    return { waitedSeconds, activeParts: Number(parts.rows[0]?.n ?? 0) };
  } finally {
    await engine.close();
  }
}

/** What `--optimize` wrote to `optimized.json` after merging a copy of the loaded data dir. */
export interface OptimizeMarker {
  readonly optimizeSeconds: number;
  readonly parts: number;
  readonly bytesOnDisk: number;
  readonly duBytes: number | null;
  /** The engine schema the merge wrote its parts with (absent: before v11, when markers began to say). */
  readonly schemaVersion?: number;
}

/**
 * A copy of the loaded data dir with `OPTIMIZE TABLE … FINAL` run on it (one part per weekly
 * partition, wide): the best case merging can reach, to set beside the state ingest left.
 * Cached beside the loaded dir, with its own marker.
 */
export async function ensureOptimizedCopy(loaded: LoadedDataDir, log: (line: string) => void): Promise<{ dataDir: string; marker: OptimizeMarker }> {
  const dataDir = `${loaded.dataDir}-optimized`;
  const markerPath = join(dataDir, 'optimized.json');
  const cached = existsSync(markerPath) ? (JSON.parse(readFileSync(markerPath, 'utf8')) as OptimizeMarker) : null;
  if (cached !== null && (cached.schemaVersion ?? 0) >= schemaVersion) return { dataDir, marker: cached };
  if (cached !== null) {
    // A newer schema may lay merged parts out differently (v11: the rest maps in buckets): merge
    // the copy again under it, as a running store's merges would.
    log(`${dataDir} was merged under schema ${cached.schemaVersion ?? '10 or older'}: running OPTIMIZE TABLE … FINAL again under ${schemaVersion} …`);
  } else {
    rmSync(dataDir, { recursive: true, force: true });
    log(`copying ${loaded.dataDir} and running OPTIMIZE TABLE … FINAL on the copy (cached for reruns) …`);
    cpSync(loaded.dataDir, dataDir, { recursive: true });
  }
  // OPTIMIZE FINAL over gigabytes can run past the adapter's default 300 s query limit.
  const engine = new ChdbEngine({ path: join(dataDir, 'engine'), poolSize: 1, maxExecutionTimeS: 7200 });
  try {
    await engine.init();
    const started = performance.now();
    await engine.optimize();
    const stats = await engine.storageStats();
    const marker: OptimizeMarker = {
      optimizeSeconds: round1((performance.now() - started) / 1000),
      parts: stats.parts,
      bytesOnDisk: stats.bytesOnDisk,
      duBytes: diskUsageBytes(join(dataDir, 'engine')),
      schemaVersion,
    };
    writeFileSync(markerPath, `${JSON.stringify(marker, null, 2)}\n`);
    return { dataDir, marker };
  } finally {
    await engine.close();
  }
}

/** The replay file decompressed next to it (`.ndjson`), for ripgrep; written once. */
export async function ensurePlainNdjson(replay: ReplayFile, log: (line: string) => void): Promise<string> {
  const path = replay.path.replace(/\.gz$/, '');
  if (existsSync(path) && statSync(path).size === replay.meta.rawBytes) return path;
  log(`decompressing ${basename(replay.path)} for ripgrep (${(replay.meta.rawBytes / 1e9).toFixed(1)} GB) …`);
  const partial = `${path}.partial`;
  await pipeline(createReadStream(replay.path), createGunzip(), createWriteStream(partial));
  renameSync(partial, path);
  return path;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
