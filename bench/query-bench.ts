/**
 * `npm run bench -- query [--events N] [--dataset mixed|windows] [--api]`: loads (or reuses) a
 * data dir of at least N replayed events through the product's ingest, then times issue 3's
 * fixed query set through `SearchService.run`, against ripgrep over the same NDJSON for the text
 * searches, or with `--api` through a real server's HTTP API (issue 4), and prints figures
 * against the targets. A script, not a test.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { TimeRange } from '../src/search/index.js';
import { benchTenant, ensureCurrentSchema, ensureLoadedDataDir, ensureOptimizedCopy, ensurePlainNdjson, openBenchRuntime } from './query-dataset.js';
import { checkQueryTargets, formatQueryReport } from './query-report.js';
import { benchQueries, pickTerms, type PickedTerms } from './query-set.js';
import { runQueryApiMode } from './query-api-mode.js';
import { runFirstRunMode } from './query-first-run.js';
import { EngineCallRecorder } from './query-engine-recorder.js';
import { timeQuery, type QueryTiming } from './query-timing.js';
import { ensureReplayFile, todayUtc } from './replay.js';
import { replayProfiles } from './replay-sources.js';
import { wholeNumberOption } from './bench-options.js';

const usage = `usage: npm run bench -- query [options]
  --events N          at least N events in the replay file (default 5000000)
  --dataset NAME      mixed | windows (default mixed)
  --window-days N     days the event times span (default 30)
  --anchor YYYY-MM-DD the window ends at this day's midnight UTC (default today)
  --runs N            timed runs per query after one warm-up (default 7)
  --rg-runs N         timed ripgrep runs per text search after one warm-up (default 5)
  --whole-runs N      timed runs of the one-statement, whole-range form of sliced searches (default 3; 0 skips)
  --optimize          time on a copy of the loaded data merged by OPTIMIZE TABLE … FINAL
                      (default: the parts as ingest and background merges left them)
  --only A,B          run only these queries (by name)
  --no-rg             skip ripgrep
API mode (issue 4): the same data and queries through a real server (node bin/vigil.js serve)
  --api               time blocking_query with concurrent clients and a scan's first rows
  --clients N         clients sending requests at once (default 4)
  --api-runs N        requests per client and query after a warm-up (default 10)
  --serial-runs N     requests by one client alone first, per query (default 5; 0 skips)
  --scan-runs N       timed runs per scan after one warm-up (default 5; 0 skips)
  --scan-query TEXT   scan this query instead of the phrase and '*' (max_rows 100000)
  --poll-ms N         pause between query_progress polls of a scan (default 5)
  --first-run TEXT    time TEXT's first run instead, --runs times, each in a new process (repeatable)
  --no-build          do not run tsc first (dist/ must be current)`;

function parseOptions(argv: readonly string[]) {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      events: { type: 'string', default: '5000000' },
      dataset: { type: 'string', default: 'mixed' },
      'window-days': { type: 'string', default: '30' },
      anchor: { type: 'string' },
      runs: { type: 'string', default: '7' },
      'rg-runs': { type: 'string', default: '5' },
      'whole-runs': { type: 'string', default: '3' },
      only: { type: 'string' },
      optimize: { type: 'boolean', default: false },
      'no-rg': { type: 'boolean', default: false },
      api: { type: 'boolean', default: false },
      clients: { type: 'string', default: '4' },
      'api-runs': { type: 'string', default: '10' },
      'serial-runs': { type: 'string', default: '5' },
      'scan-runs': { type: 'string', default: '5' },
      'scan-query': { type: 'string' },
      'poll-ms': { type: 'string', default: '5' },
      'no-build': { type: 'boolean', default: false },
      'first-run': { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', default: false },
    },
  });
  const positive = (name: string, text: string): number => wholeNumberOption(name, text, usage);
  const countOf = (name: 'whole-runs' | 'serial-runs' | 'scan-runs'): number => (values[name] === '0' ? 0 : positive(name, values[name]));
  if (!replayProfiles[values.dataset]) throw new Error(`--dataset must be one of ${Object.keys(replayProfiles).join(', ')}\n${usage}`);
  if (values.anchor !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.anchor)) throw new Error(`--anchor takes a day as YYYY-MM-DD, got ${values.anchor}`);
  return {
    help: values.help,
    events: positive('events', values.events),
    dataset: values.dataset,
    windowDays: positive('window-days', values['window-days']),
    anchorDay: values.anchor ?? todayUtc(Date.now()),
    runs: positive('runs', values.runs),
    rgRuns: positive('rg-runs', values['rg-runs']),
    wholeRangeRuns: countOf('whole-runs'),
    only: values.only ? new Set(values.only.split(',')) : null,
    optimize: values.optimize,
    firstRun: values['first-run'],
    rg: !values['no-rg'] && !values.api && values['first-run'].length === 0,
    api: values.api
      ? {
          clients: positive('clients', values.clients),
          runs: positive('api-runs', values['api-runs']),
          serialRuns: countOf('serial-runs'),
          scanRuns: countOf('scan-runs'),
          scanQuery: values['scan-query'] ?? null,
          pollMs: positive('poll-ms', values['poll-ms']),
          build: !values['no-build'],
        }
      : null,
  };
}

/** Runs the query benchmark; returns the process exit status (1 when a target is missed). */
export async function runQueryBench(repoDir: string, argv: readonly string[]): Promise<number> {
  const options = parseOptions(argv);
  if (options.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);
  if (options.rg) execFileSync('rg', ['--version']); // fails early, with ENOENT, when ripgrep is missing

  const replay = await ensureReplayFile({ repoDir, dataset: options.dataset, events: options.events, anchorDay: options.anchorDay, windowDays: options.windowDays }, log);
  log(
    `replay file ${replay.path}: ${replay.meta.events} events, ${(replay.meta.rawBytes / 1e6).toFixed(0)} MB raw${replay.generated ? ` (generated in ${replay.meta.generationSeconds} s)` : ' (cached)'}`,
  );
  const data = await ensureLoadedDataDir(repoDir, replay, log);
  const m = data.marker;
  log(
    `data dir ${data.dataDir}${data.loaded ? '' : ' (cached)'}: ${m.rows} rows, ${m.parts} parts, ${(m.bytesOnDisk / 1e6).toFixed(0)} MB on disk; loaded in ${m.loadSeconds} s (${Math.round(m.ingested / m.loadSeconds)} events/s) + ${m.settleSeconds} s of merges`,
  );
  const optimized = options.optimize ? await ensureOptimizedCopy(data, log) : null;
  if (optimized)
    log(
      `timing on ${optimized.dataDir}: ${optimized.marker.parts} parts, ${(optimized.marker.bytesOnDisk / 1e6).toFixed(0)} MB (OPTIMIZE FINAL took ${optimized.marker.optimizeSeconds} s)`,
    );
  const layout = await ensureCurrentSchema(optimized?.dataDir ?? data.dataDir, log);
  if (layout.waitedSeconds > 0) log(`schema brought up to date; its background work took ${layout.waitedSeconds.toFixed(0)} s`);
  const parts = layout.activeParts;
  const loadedParts = optimized?.marker.parts ?? m.parts;
  if (parts !== loadedParts) log(`the data dir holds ${parts} parts now, not the ${loadedParts} it was left with: the engine merged it since`);
  const ndjson = options.rg ? await ensurePlainNdjson(replay, log) : '';

  // Every event: the replay window, plus the events stamped with their ingest time at load.
  const range: TimeRange = {
    startNs: BigInt(Date.parse(replay.meta.windowStart)) * 1_000_000n,
    endNs: BigInt(Date.parse(m.loadedAt) + 3_600_000) * 1_000_000n,
  };
  const machine = {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const savePath = (mode: string): string => join(repoDir, '.bench', 'results', `query-${mode}${options.dataset}-n${options.events}${optimized ? '-optimized' : ''}-${stamp}.json`);
  const header = (load: { before: number; after: number }, terms: PickedTerms | null, runsNote: string): string => {
    const state =
      parts !== loadedParts
        ? `${loadedParts} ${optimized ? 'after OPTIMIZE FINAL' : 'as ingested'}, merged since by the engine`
        : optimized
          ? 'after OPTIMIZE FINAL'
          : 'as ingested, background merges settled';
    return [
      `machine: ${machine.cores} cores (${machine.cpu}), ${(machine.memoryBytes / 2 ** 30).toFixed(0)} GiB, Node ${machine.node}; 1-min load ${load.before.toFixed(1)} → ${load.after.toFixed(1)}`,
      `data: ${m.rows.toLocaleString('en-US')} events (${options.dataset}), ${parts} parts (${state}), ${((optimized?.marker.bytesOnDisk ?? m.bytesOnDisk) / 1e6).toFixed(0)} MB on disk; ${runsNote}`,
      ...(terms
        ? [`terms: rare token ${terms.rareToken} (${terms.rareTokenCount} events), Hostname ${terms.hostname} (${terms.hostnameCount}), id.resp_h ${terms.ip} (${terms.ipCount})`]
        : []),
      '',
    ].join('\n');
  };
  if (options.firstRun.length > 0) {
    const load = loadavg()[0] ?? 0;
    const note = `${options.runs} processes per query`;
    return runFirstRunMode({
      dataDir: optimized?.dataDir ?? data.dataDir,
      range,
      texts: options.firstRun,
      runs: options.runs,
      savePath: savePath('first-run-'),
      header: header({ before: load, after: load }, null, note),
      log,
    });
  }
  if (options.api) {
    const context = { argv, machine, replay: replay.meta, data: m, optimized: optimized?.marker ?? null, activeParts: parts };
    return runQueryApiMode({
      repoDir,
      dataDir: optimized?.dataDir ?? data.dataDir,
      optimized: optimized !== null,
      marker: m,
      range,
      ...options.api,
      only: options.only,
      savePath: savePath('api-'),
      context,
      header,
      log,
    });
  }
  const runtime = await openBenchRuntime(optimized?.dataDir ?? data.dataDir);
  const timings: QueryTiming[] = [];
  try {
    const engine = runtime.engine!;
    const recorder = new EngineCallRecorder(engine);
    const search = runtime.services.search!;
    const terms = await pickTerms(engine, search, range, log);
    const queries = benchQueries(terms).filter((q) => !options.only || options.only.has(q.name));
    const indexes = async () => (await runtime.services.indexes.searchable(benchTenant)).map((r) => ({ id: r.id, name: r.name, system: r.kind === 'system' }));
    const loadBefore = loadavg()[0]!;
    for (const query of queries) {
      timings.push(
        await timeQuery(query, {
          engine,
          recorder,
          search,
          indexes,
          range,
          runs: options.runs,
          wholeRangeRuns: options.wholeRangeRuns,
          rgRuns: options.rg ? options.rgRuns : 0,
          ndjson,
          log,
        }),
      );
    }
    const checks = checkQueryTargets(timings);
    const saved = savePath('');
    mkdirSync(dirname(saved), { recursive: true });
    const load = { before: loadBefore, after: loadavg()[0]! };
    writeFileSync(
      saved,
      `${JSON.stringify({ argv, machine, replay: replay.meta, data: m, optimized: optimized?.marker ?? null, activeParts: parts, range: { startNs: String(range.startNs), endNs: String(range.endNs) }, terms, load, timings, checks }, null, 2)}\n`,
    );

    process.stdout.write(header(load, terms, `${options.runs} runs per query, ${options.rgRuns} per rg`));
    process.stdout.write(formatQueryReport(timings, checks));
    log(`results saved to ${saved}`);
    return checks.every((c) => c.pass) ? 0 : 1;
  } finally {
    await runtime.close();
  }
}
