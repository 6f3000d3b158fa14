/**
 * `npm run bench -- ingest [--events N] [--dataset windows|mixed] [--path cli|http|both]`:
 * builds dist/, generates (or reuses) the replay file, times a raw read of it as the floor,
 * then ingests it through the CLI and/or the HTTP API and prints figures against the targets.
 * A script, not a test: timings belong here, never in unit tests.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchCliIngest } from './ingest-cli-path.js';
import { benchHttpIngest } from './ingest-http-path.js';
import { checkTargets, formatIngestReport, type MachineInfo } from './ingest-report.js';
import type { IngestRunResult } from './ingest-run-result.js';
import { timeRawRead } from './raw-read-baseline.js';
import { ensureReplayFile, todayUtc } from './replay.js';
import { replayProfiles } from './replay-sources.js';
import { wholeNumberOption } from './bench-options.js';

const usage = `usage: npm run bench -- ingest [options]
  --events N          at least N events in the replay file (default 2000000)
  --dataset NAME      windows | mixed (default windows)
  --path P            cli | http | both (default cli)
  --body-mb N         HTTP request body size in MB (default 20)
  --concurrency N     HTTP requests in flight (default 2)
  --window-days N     days the event times span (default 30)
  --anchor YYYY-MM-DD the window ends at this day's midnight UTC (default today)
  --no-optimize       skip OPTIMIZE FINAL (storage is then measured as ingested only)
  --no-build          do not run tsc first (dist/ must be current)
  --keep              keep the temporary data dirs
  --profile           CPU-profile the CLI ingest (node --cpu-prof) and summarize where its main thread went`;

function parseOptions(argv: readonly string[]) {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      events: { type: 'string', default: '2000000' },
      dataset: { type: 'string', default: 'windows' },
      path: { type: 'string', default: 'cli' },
      'body-mb': { type: 'string', default: '20' },
      concurrency: { type: 'string', default: '2' },
      'window-days': { type: 'string', default: '30' },
      anchor: { type: 'string' },
      'no-optimize': { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const positive = (name: string, text: string): number => wholeNumberOption(name, text, usage);
  if (!replayProfiles[values.dataset]) throw new Error(`--dataset must be one of ${Object.keys(replayProfiles).join(', ')}\n${usage}`);
  if (!['cli', 'http', 'both'].includes(values.path)) throw new Error(`--path must be cli, http or both\n${usage}`);
  // The day names the cache file, so it must be exactly a date.
  if (values.anchor !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.anchor)) throw new Error(`--anchor takes a day as YYYY-MM-DD, got ${values.anchor}`);
  return {
    help: values.help,
    events: positive('events', values.events),
    dataset: values.dataset,
    paths: values.path === 'both' ? (['cli', 'http'] as const) : ([values.path as 'cli' | 'http'] as const),
    bodyBytes: positive('body-mb', values['body-mb']) * 1e6,
    concurrency: positive('concurrency', values.concurrency),
    windowDays: positive('window-days', values['window-days']),
    anchorDay: values.anchor ?? todayUtc(Date.now()),
    optimize: !values['no-optimize'],
    build: !values['no-build'],
    keep: values.keep,
    profile: values.profile,
  };
}

/** Runs the ingest benchmark; returns the process exit status (1 when a target fails). */
export async function runIngestBench(repoDir: string, argv: readonly string[]): Promise<number> {
  const options = parseOptions(argv);
  if (options.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);
  const machine: MachineInfo = { cores: availableParallelism(), memoryBytes: totalmem(), node: process.version, platform: `${process.platform} ${process.arch}` };

  if (options.build) {
    log('building dist/ (npx tsc -p tsconfig.build.json) …');
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: repoDir, stdio: 'inherit' });
  }
  const replay = await ensureReplayFile({ repoDir, dataset: options.dataset, events: options.events, anchorDay: options.anchorDay, windowDays: options.windowDays }, log);
  log(
    `replay file ${replay.path}: ${replay.meta.events} events, ${(replay.meta.rawBytes / 1e6).toFixed(0)} MB raw${replay.generated ? ` (generated in ${replay.meta.generationSeconds} s)` : ' (cached)'}`,
  );

  log('baseline: zcat FILE | wc -l …');
  const baselines = await timeRawRead(replay.path);
  const results: IngestRunResult[] = [];
  const failures: string[] = [];
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const saved = join(repoDir, '.bench', 'results', `ingest-${options.dataset}-${options.paths.join('+')}-${stamp}.json`);
  mkdirSync(dirname(saved), { recursive: true });
  // Saved after every path, so a failure in a later one does not lose what was measured.
  const save = (): void => writeFileSync(saved, `${JSON.stringify({ argv, machine, replay, baselines, results, failures, targets: checkTargets(results) }, null, 2)}\n`);
  for (const path of options.paths) {
    const common = { repoDir, file: replay.path, optimize: options.optimize, keepDataDir: options.keep, log };
    const profileDir = options.profile ? mkdtempSync(join(repoDir, '.bench', 'profile-')) : undefined;
    const loadBefore = loadavg()[0]!;
    try {
      const result =
        path === 'cli'
          ? await benchCliIngest({ ...common, ...(profileDir ? { profileDir } : {}) })
          : await benchHttpIngest({ ...common, bodyBytes: options.bodyBytes, concurrency: options.concurrency });
      results.push({ ...result, load: { before: loadBefore, after: loadavg()[0]! } });
    } catch (error) {
      failures.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
      log(`${path} path failed: ${failures.at(-1)}`);
    }
    save();
  }

  process.stdout.write(formatIngestReport(machine, replay, baselines, results));
  for (const f of failures) process.stdout.write(`FAILED  ${f}\n`);
  log(`results saved to ${saved}`);
  if (failures.length > 0) return 1;
  return checkTargets(results).every((c) => c.pass) ? 0 : 1;
}
