/**
 * `npm run bench -- query --api`: the query bench through HTTP. Builds dist/, starts the real
 * server (`node bin/vigil.js serve`) on the bench's cached data dir with a key of tenant `bench`,
 * times the fixed query set through `blocking_query` with several clients at once, and a
 * full-range scan through `start_query` + `query_progress` until its first rows.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { formatRfc3339Ns } from '../src/core/index.js';
import type { TimeRange } from '../src/search/index.js';
import { runMeasured } from './measured-process.js';
import { QueryApiClient, expectOk } from './query-api-client.js';
import { checkApiTargets, formatApiReport, summarizeBlocking, summarizeScan } from './query-api-report.js';
import { serverResponseTimes, timeBlockingQuery, timeScan, type BlockingTiming, type RangeBody, type ScanTiming } from './query-api-timing.js';
import { benchTenant, openBenchRuntime, type LoadMarker } from './query-dataset.js';
import { benchQueries, pickTerms, type PickedTerms } from './query-set.js';
import { benchEnv, vigilArgv } from './vigil-command.js';
import { VigilServerProcess } from './vigil-server-process.js';

export interface ApiModeOptions {
  readonly repoDir: string;
  /** The data dir the in-process mode times (the loaded one, or its optimized copy). */
  readonly dataDir: string;
  /** Whether `dataDir` is the optimized copy. */
  readonly optimized: boolean;
  readonly marker: LoadMarker;
  readonly range: TimeRange;
  readonly clients: number;
  readonly runs: number;
  readonly serialRuns: number;
  readonly scanRuns: number;
  readonly pollMs: number;
  /** Replaces the default scans by this one text. */
  readonly scanQuery: string | null;
  readonly only: ReadonlySet<string> | null;
  readonly build: boolean;
  /** Where the results JSON goes. */
  readonly savePath: string;
  /** Fields of the in-process results JSON that the API results repeat (argv, machine, data …). */
  readonly context: Readonly<Record<string, unknown>>;
  /** The machine, data and terms lines the in-process mode prints too. */
  readonly header: (load: { before: number; after: number }, terms: PickedTerms, runsNote: string) => string;
  readonly log: (line: string) => void;
}

/** A scan must read the whole range: its matches (about 23,500 in 5 M events) stay under max_rows. */
const scanMaxRows = 100_000;

/** Runs the API mode; returns the process exit status (1 when a target is missed). */
export async function runQueryApiMode(options: ApiModeOptions): Promise<number> {
  const { repoDir, dataDir, log } = options;
  if (options.build) {
    log('building dist/ (npx tsc -p tsconfig.build.json) …');
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: repoDir, stdio: 'inherit' });
  }
  const picked = termsOfInProcessRun(repoDir, options.marker, options.optimized) ?? {
    terms: await pickTermsInProcess(dataDir, options.range, log),
    source: 'picked in process before the server started',
    inProcess: new Map<string, number>(),
  };
  log(`terms ${picked.source}`);
  const apiKey = await benchApiKey(repoDir, dataDir, log);

  const logPath = join(repoDir, '.bench', 'query-api-server.log');
  rmSync(logPath, { force: true });
  // Past the default per-tenant limit of 4 running queries the clients would get 429s.
  const env: Record<string, string> =
    options.clients > 4 ? { VIGIL_MAX_CONCURRENT_QUERIES_PER_TENANT: String(options.clients), VIGIL_MAX_CONCURRENT_QUERIES: String(Math.max(8, options.clients)) } : {};
  log(`starting vigil serve on ${dataDir} (log ${logPath}) …`);
  const server = await VigilServerProcess.start(repoDir, dataDir, { logPath, env });
  const client = new QueryApiClient(server.url, apiKey);
  try {
    const range: RangeBody = { start_time: formatRfc3339Ns(options.range.startNs), end_time: formatRfc3339Ns(options.range.endNs) };
    const all = benchQueries(picked.terms);
    const queries = all.filter((q) => !options.only || options.only.has(q.name));
    const phrase = all.find((q) => q.name === 'phrase')!;
    const scans =
      options.scanQuery !== null
        ? [{ name: 'custom', text: options.scanQuery, maxRows: scanMaxRows }]
        : [
            { name: 'phrase-all', text: phrase.text, maxRows: scanMaxRows },
            { name: 'everything', text: '*', maxRows: scanMaxRows },
          ];
    log(`server ${server.url} (pid ${server.pid}); ${options.clients} clients × ${options.runs} requests per query after a warm-up, ${options.serialRuns} by one client first`);

    // A fresh server answers its first queries several times slower (caches, sessions, its
    // start-up maintenance): every query runs once before anything is timed.
    log('warming the server up: every query once …');
    for (const query of queries)
      expectOk(await client.blocking({ query: query.text, ...range, max_rows: query.maxRows }, `${query.name}-server-warm`), `blocking_query ${query.name}`);
    const loadBefore = loadavg()[0]!;
    const blocking: BlockingTiming[] = [];
    for (const query of queries)
      blocking.push(await timeBlockingQuery(query, { client, range, clients: options.clients, runs: options.runs, serialRuns: options.serialRuns, log }));
    const scanTimings: ScanTiming[] = [];
    if (options.scanRuns > 0) for (const scan of scans) scanTimings.push(await timeScan(client, scan, range, options.scanRuns, options.pollMs, log));
    const load = { before: loadBefore, after: loadavg()[0]! };
    await server.stop(); // its request log is complete once it has exited

    const serverMs = serverResponseTimes(logPath);
    const blockingSummary = summarizeBlocking(blocking, serverMs, picked.inProcess);
    const scanSummary = scanTimings.map((s) => summarizeScan(s, serverMs));
    const checks = checkApiTargets(blockingSummary, scanSummary);
    mkdirSync(dirname(options.savePath), { recursive: true });
    const settings = {
      clients: options.clients,
      runs: options.runs,
      serialRuns: options.serialRuns,
      scanRuns: options.scanRuns,
      pollMs: options.pollMs,
      server: 'node bin/vigil.js serve (dist/), default settings',
      env,
    };
    writeFileSync(
      options.savePath,
      `${JSON.stringify({ mode: 'api', ...options.context, settings, range, terms: picked.terms, termsSource: picked.source, load, blocking: blockingSummary, scans: scanSummary, checks, raw: { blocking, scans: scanTimings } }, null, 2)}\n`,
    );
    process.stdout.write(
      options.header(
        load,
        picked.terms,
        `${options.clients} clients × ${options.runs} blocking_query per query (+ ${options.serialRuns} by 1 client), ${options.scanRuns} runs per scan`,
      ),
    );
    process.stdout.write(formatApiReport(blockingSummary, scanSummary, checks));
    log(`results saved to ${options.savePath}`);
    return checks.every((c) => c.pass) ? 0 : 1;
  } finally {
    client.close();
    await server.stop();
  }
}

interface TermsSource {
  readonly terms: PickedTerms;
  readonly source: string;
  /** SearchService.run medians of that run, by query name. */
  readonly inProcess: ReadonlyMap<string, number>;
}

/**
 * The terms of the latest in-process run over the same load (same replay file and load time) and
 * layout (optimized or not): the same picking, and medians of the same data, without opening the
 * engine the server is about to hold.
 */
function termsOfInProcessRun(repoDir: string, marker: LoadMarker, optimized: boolean): TermsSource | null {
  const dir = join(repoDir, '.bench', 'results');
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((f) => /^query-.*\.json$/.test(f))
    .map((f) => ({ path: join(dir, f), mtimeMs: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .map((f) => f.path);
  for (const file of files) {
    try {
      const run = JSON.parse(readFileSync(file, 'utf8')) as {
        mode?: string;
        data?: LoadMarker;
        optimized?: unknown;
        terms?: PickedTerms;
        timings?: { query: { name: string }; product: { median: number } }[];
      };
      if (run.mode === 'api' || !run.terms?.rareToken || !run.timings) continue;
      if ((run.optimized !== null && run.optimized !== undefined) !== optimized) continue;
      if (run.data?.loadedAt !== marker.loadedAt || run.data.replayFile !== marker.replayFile) continue;
      return { terms: run.terms, source: `from ${file}`, inProcess: new Map(run.timings.map((t) => [t.query.name, t.product.median])) };
    } catch {
      // An unreadable or older results file: look further.
    }
  }
  return null;
}

/** Picks the terms as the in-process mode does, then closes the engine (one process per data dir). */
async function pickTermsInProcess(dataDir: string, range: TimeRange, log: (line: string) => void): Promise<PickedTerms> {
  log('no in-process results for this load: picking the terms in process first …');
  const runtime = await openBenchRuntime(dataDir);
  try {
    return await pickTerms(runtime.engine!, runtime.services.search!, range, log);
  } finally {
    await runtime.close();
  }
}

/** The data dir's API key of tenant `bench`, created once with `vigil keys create` and kept in `bench-api-key`. */
async function benchApiKey(repoDir: string, dataDir: string, log: (line: string) => void): Promise<string> {
  const keyPath = join(dataDir, 'bench-api-key');
  if (existsSync(keyPath)) return readFileSync(keyPath, 'utf8').trim();
  log(`creating an api key for tenant ${benchTenant} (vigil keys create) …`);
  const [cmd, args] = vigilArgv(repoDir, 'keys', 'create', '--tenant', benchTenant, '--name', 'query bench', '--json', '--data-dir', dataDir);
  const created = await runMeasured(cmd, args, { cwd: dataDir, env: benchEnv() });
  if (created.exitCode !== 0) throw new Error(`vigil keys create failed: ${created.stderr.trim()}`);
  const secret = (JSON.parse(created.stdout) as { key: string }).key;
  writeFileSync(keyPath, `${secret}\n`, { mode: 0o600 });
  return secret;
}
