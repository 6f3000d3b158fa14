/**
 * `npm run bench -- ingest [--events N] [--dataset windows|mixed] [--path cli|http|both]`:
 * builds dist/, generates (or reuses) the replay file, times a raw read of it as the floor,
 * then ingests it through the CLI and/or the HTTP API and prints figures against the targets.
 * A script, not a test: timings belong here, never in unit tests.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchCliIngest } from './ingest-cli-path.js';
import { benchHttpIngest } from './ingest-http-path.js';
import { checkTargets, formatIngestReport, type MachineInfo } from './ingest-report.js';
import type { IngestRunResult } from './ingest-run-result.js';
import { timeRawRead } from './raw-read-baseline.js';
import { ensureReplayFile, todayUtc } from './replay.js';
import { replayProfiles } from './replay-sources.js';

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
  --keep              keep the temporary data dirs`;

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
      help: { type: 'boolean', default: false },
    },
  });
  const positive = (name: string, text: string): number => {
    const n = Number(text.replace(/_/g, ''));
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} takes a whole number of at least 1, got ${text}\n${usage}`);
    return n;
  };
  if (!replayProfiles[values.dataset]) throw new Error(`--dataset must be one of ${Object.keys(replayProfiles).join(', ')}\n${usage}`);
  if (!['cli', 'http', 'both'].includes(values.path)) throw new Error(`--path must be cli, http or both\n${usage}`);
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
  log(`replay file ${replay.path}: ${replay.meta.events} events, ${(replay.meta.rawBytes / 1e6).toFixed(0)} MB raw${replay.generated ? ` (generated in ${replay.meta.generationSeconds} s)` : ' (cached)'}`);

  log('baseline: zcat FILE | wc -l …');
  const baselines = await timeRawRead(replay.path);
  const results: IngestRunResult[] = [];
  for (const path of options.paths) {
    const common = { repoDir, file: replay.path, optimize: options.optimize, keepDataDir: options.keep, log };
    results.push(path === 'cli' ? await benchCliIngest(common) : await benchHttpIngest({ ...common, bodyBytes: options.bodyBytes, concurrency: options.concurrency }));
  }

  process.stdout.write(formatIngestReport(machine, replay, baselines, results));
  const resultsDir = join(repoDir, '.bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const saved = join(resultsDir, `ingest-${options.dataset}-${options.paths.join('+')}-${stamp}.json`);
  writeFileSync(saved, `${JSON.stringify({ argv, machine, replay, baselines, results, targets: checkTargets(results) }, null, 2)}\n`);
  log(`results saved to ${saved}`);
  return checkTargets(results).every((c) => c.pass) ? 0 : 1;
}
