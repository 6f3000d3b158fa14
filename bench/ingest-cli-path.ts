import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestRunResult } from './ingest-run-result.js';
import { runMeasured } from './measured-process.js';
import { measureStorage } from './storage-footprint.js';
import { summarizeCpuProfile } from './cpu-profile-summary.js';
import { benchEnv, vigilArgvWithNodeFlags } from './vigil-command.js';

export interface CliIngestOptions {
  readonly repoDir: string;
  readonly file: string;
  readonly optimize: boolean;
  readonly keepDataDir: boolean;
  /** Write a V8 CPU profile of the vigil process here and summarize it (adds a little overhead). */
  readonly profileDir?: string;
  /** Run the CLI under `taskset -c <cpus>` (e.g. `0` for one core). */
  readonly cpus?: string;
  readonly log: (line: string) => void;
}

/** Exit status of `vigil ingest` when every line was read but some were rejected. */
const exitSomeRejected = 3;

/**
 * `vigil ingest` of the replay file into a fresh data dir, timed from process start to exit,
 * then the data dir's storage measured with the real engine.
 */
export async function benchCliIngest(options: CliIngestOptions): Promise<IngestRunResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-cli-'));
  try {
    const nodeFlags = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
    const [node, args] = vigilArgvWithNodeFlags(
      options.repoDir,
      nodeFlags,
      'ingest',
      '--data-dir',
      dataDir,
      '--tenant',
      'bench',
      '--index',
      'replay',
      '--create-index',
      '--quiet',
      '--json',
      options.file,
    );
    options.log(`cli: node bin/vigil.js ingest --data-dir ${dataDir} --tenant bench --index replay --create-index --quiet --json FILE`);
    // cwd is the empty data dir, so no ./vigil.config.json of the caller is picked up.
    const [command, argv] = options.cpus === undefined ? [node, args] : ['taskset', ['-c', options.cpus, node, ...args]];
    const run = await runMeasured(command, argv, { cwd: dataDir, env: benchEnv() });
    if (run.exitCode !== 0 && run.exitCode !== exitSomeRejected) {
      throw new Error(`vigil ingest exited with ${run.exitCode}: ${run.stderr.trim().slice(-2000) || run.stdout.trim().slice(-2000)}`);
    }
    const summary = JSON.parse(run.stdout) as { ingested: number; rejected: number; bytes: number; seconds: number };
    options.log(
      `cli: ${summary.ingested} ingested, ${summary.rejected} rejected in ${run.wallSeconds.toFixed(1)} s; measuring storage${options.optimize ? ' (then OPTIMIZE FINAL)' : ''} …`,
    );
    const storage = await measureStorage(options.repoDir, join(dataDir, 'engine'), options.optimize);
    return {
      path: 'cli',
      ingested: summary.ingested,
      rejected: summary.rejected,
      rawBytes: summary.bytes,
      wallSeconds: run.wallSeconds,
      reportedSeconds: summary.seconds,
      peakRssBytes: run.peakRssBytes,
      rssSource: run.rssSource,
      cpuSeconds: run.cpuSeconds,
      clientCpuSeconds: null,
      storage,
      ...(options.profileDir ? { profile: summarizeCpuProfile(options.profileDir) ?? undefined } : {}),
      notes: [...(options.profileDir ? ['profiled run (timings include profiler overhead)'] : []), ...(options.keepDataDir ? [`data dir kept at ${dataDir}`] : [])],
    };
  } finally {
    if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
