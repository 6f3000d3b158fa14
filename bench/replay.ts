/**
 * The replay generator (datasets README §5, steps 3, 4 and 7): scales the real seed datasets up
 * to N events by replaying them in epochs whose timestamps tile the days before an anchor day,
 * with a few identifiers relabelled per epoch. The output is gzip NDJSON, written by streaming
 * (memory stays flat whatever N is), deterministic for its parameters and cached under
 * `<repo>/.bench/` so reruns skip generation.
 */
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { createGzip } from 'node:zlib';
import { replayProfiles } from './replay-sources.js';
import { profileSeed, replaySource, type ReplayEvent, type SourceReplayPlan } from './replay-source-stream.js';

/** Bump when the output for the same parameters changes, so stale caches are not reused. */
const generatorVersion = 1;
const dayMs = 86_400_000;

export interface ReplayOptions {
  readonly repoDir: string;
  /** A key of `replayProfiles`: `windows` or `mixed`. */
  readonly dataset: string;
  /** At least this many events are written (whole epochs of every source). */
  readonly events: number;
  /** UTC day (YYYY-MM-DD) at whose midnight the window ends; defaults to today. */
  readonly anchorDay: string;
  readonly windowDays: number;
}

export interface ReplayMeta {
  readonly generatorVersion: number;
  readonly dataset: string;
  readonly requestedEvents: number;
  readonly events: number;
  /** Decoded NDJSON bytes, newlines included: the "raw bytes" of every ratio. */
  readonly rawBytes: number;
  readonly gzipBytes: number;
  readonly windowStart: string;
  readonly windowEnd: string;
  readonly sources: readonly { name: string; seedEvents: number; epochs: number; events: number }[];
  readonly generationSeconds: number;
}

export interface ReplayFile {
  readonly path: string;
  readonly meta: ReplayMeta;
  /** True when this call wrote the file, false when it came from the cache. */
  readonly generated: boolean;
}

/** `<repo>/../shared/datasets`, or an error that says what is missing. */
export function sharedDatasetsDir(repoDir: string): string {
  const dir = resolve(repoDir, '..', 'shared', 'datasets');
  if (!existsSync(join(dir, 'windows', 'otrf-windows-atomic-host.ndjson.gz'))) {
    throw new Error(`the replay needs the shared datasets at ${dir} (windows/otrf-windows-atomic-host.ndjson.gz is missing); see that folder's README.md`);
  }
  return dir;
}

/** Today's UTC day as YYYY-MM-DD. */
export function todayUtc(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}

/** The cached replay file for these options, generating it first when absent. */
export async function ensureReplayFile(options: ReplayOptions, log: (line: string) => void): Promise<ReplayFile> {
  if (!replayProfiles[options.dataset]) throw new Error(`unknown dataset ${options.dataset}: use one of ${Object.keys(replayProfiles).join(', ')}`);
  const cacheDir = join(options.repoDir, '.bench');
  const base = `replay-${options.dataset}-n${options.events}-${options.anchorDay}-w${options.windowDays}d-v${generatorVersion}`;
  const path = join(cacheDir, `${base}.ndjson.gz`);
  const metaPath = join(cacheDir, `${base}.json`);
  if (existsSync(path) && existsSync(metaPath)) {
    return { path, meta: JSON.parse(readFileSync(metaPath, 'utf8')) as ReplayMeta, generated: false };
  }
  const datasets = sharedDatasetsDir(options.repoDir);
  mkdirSync(cacheDir, { recursive: true });
  log(`generating ${base}.ndjson.gz (cached for reruns) …`);
  const partial = `${path}.partial`;
  try {
    const meta = await generate(options, datasets, partial, log);
    // The sidecar is written last and the file renamed into place: an interrupted run leaves no cache entry.
    renameSync(partial, path);
    writeFileSync(metaPath, `${JSON.stringify(meta, null, 2)}\n`);
    return { path, meta, generated: true };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

async function generate(options: ReplayOptions, datasets: string, outPath: string, log: (line: string) => void): Promise<ReplayMeta> {
  const started = performance.now();
  const profile = replayProfiles[options.dataset]!;
  const endMs = Date.parse(`${options.anchorDay}T00:00:00Z`);
  if (Number.isNaN(endMs)) throw new Error(`anchor day ${options.anchorDay} is not YYYY-MM-DD`);
  const startMs = endMs - options.windowDays * dayMs;

  const plans: SourceReplayPlan[] = [];
  for (const { source, share } of profile.sources) {
    const path = join(datasets, source.file);
    const seed = await profileSeed(path, source);
    const epochs = Math.max(1, Math.ceil((options.events * share) / seed.events));
    log(`  ${source.name}: ${seed.events} seed events (${seed.events - seed.timedEvents} without a time), ${epochs} epochs`);
    plans.push({ path, source, profile: seed, epochs, startMs, endMs });
  }

  const counts = plans.map(() => 0);
  let events = 0;
  let rawBytes = 0;
  const gzip = createGzip({ level: 6 });
  const file = createWriteStream(outPath);
  gzip.pipe(file);
  const written = once(file, 'close');
  let pending: string[] = [];
  let pendingChars = 0;
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const chunk = Buffer.from(pending.join(''));
    pending = [];
    pendingChars = 0;
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  for await (const { source, event } of mergeByTime(plans.map(replaySource))) {
    const line = `${event.line}\n`;
    pending.push(line);
    pendingChars += line.length;
    rawBytes += Buffer.byteLength(line);
    counts[source]!++;
    if (++events % 500_000 === 0) log(`  ${events} events written`);
    if (pendingChars >= 1 << 20) await flush();
  }
  await flush();
  gzip.end();
  await written;

  return {
    generatorVersion,
    dataset: options.dataset,
    requestedEvents: options.events,
    events,
    rawBytes,
    gzipBytes: statSync(outPath).size,
    windowStart: new Date(startMs).toISOString(),
    windowEnd: new Date(endMs).toISOString(),
    sources: plans.map((p, i) => ({ name: p.source.name, seedEvents: p.profile.events, epochs: p.epochs, events: counts[i]! })),
    generationSeconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** k-way merge of time-ordered streams; ties go to the earlier stream, so the output is deterministic. */
async function* mergeByTime(streams: AsyncGenerator<ReplayEvent>[]): AsyncGenerator<{ source: number; event: ReplayEvent }> {
  const heads: (ReplayEvent | null)[] = [];
  for (const s of streams) heads.push((await s.next()).value ?? null);
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      if (heads[i] && (best < 0 || heads[i]!.ms < heads[best]!.ms)) best = i;
    }
    if (best < 0) return;
    yield { source: best, event: heads[best]! };
    heads[best] = (await streams[best]!.next()).value ?? null;
  }
}
