/**
 * `npm run bench -- journal`: what the ingest journal saves a server fed by shippers. The same
 * events go, as NDJSON requests of `--batch` events, to two `vigil serve` processes in
 * interleaved rounds: one with the journal (the default), one without (`VIGIL_INGEST_JOURNAL=
 * false`), and an idle control server whose CPU is taken off both. Each figure is the server's
 * CPU over the whole run (its merges included, settled at the end) per event stored. For scale,
 * `vigil ingest` then writes the same events from a file in process: its CPU, less that of a
 * one-event ingest (starting the process and the engine), per event.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCpuSeconds, readPeakRss, runMeasured, waitUntilIdle } from './measured-process.js';
import { benchEnv, vigilArgv } from './vigil-command.js';
import { loadEvents, parseRequestLoad } from './shippers-bench.js';
import { VigilServerProcess } from './vigil-server-process.js';

const usage = `npm run bench -- journal [--events N] [--batch 1000] [--rounds 3] [--concurrency 1] [--no-build]
  --events N       events per server (default 60000), from ../shared/datasets (Windows, Zeek, web, auth)
  --batch N        events per request (default 1000)
  --rounds N       interleaved rounds (default 3)
  --concurrency N  requests in flight (default 1: one shipper sending one request at a time)
  --no-build       do not run tsc first (dist/ must be current)`;

const variants = {
  journal: {},
  direct: { VIGIL_INGEST_JOURNAL: 'false' },
  control: {},
} as const;
type Variant = keyof typeof variants;

interface Run {
  readonly server: VigilServerProcess;
  readonly dataDir: string;
  readonly key: string;
  readonly cpuAtStart: number;
  sendingSeconds: number;
  events: number;
}

export async function runJournalBench(repoDir: string, argv: readonly string[]): Promise<number> {
  const options = parseRequestLoad(argv, usage, 1);
  if (options === null) return 0;
  const { batch, rounds, concurrency } = options;
  const log = (line: string) => process.stdout.write(`${line}\n`);
  if (options.build) execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: repoDir, stdio: 'inherit' });
  const lines = await loadEvents(join(repoDir, '..', 'shared', 'datasets'), options.events);
  log(`${lines.length} events per server, ${rounds} rounds, ${batch} events a request, ${concurrency} in flight`);
  const runs = new Map<Variant, Run>();
  try {
    for (const variant of Object.keys(variants) as Variant[]) runs.set(variant, await start(repoDir, variant));
    const perRound = Math.ceil(lines.length / rounds);
    for (let round = 0; round < rounds; round++) {
      const slice = lines.slice(round * perRound, (round + 1) * perRound);
      const bodies: string[] = [];
      for (let at = 0; at < slice.length; at += batch) bodies.push(`${slice.slice(at, at + batch).join('\n')}\n`);
      // The order alternates, so neither variant always runs after the other's merges.
      const order: Variant[] = round % 2 === 0 ? ['journal', 'direct'] : ['direct', 'journal'];
      for (const variant of order) {
        const run = runs.get(variant)!;
        const started = performance.now();
        await sendAll(run, bodies, concurrency);
        run.sendingSeconds += (performance.now() - started) / 1000;
        run.events += slice.length;
        await waitUntilIdle(run.server.pid);
      }
      log(`round ${round + 1}/${rounds} done`);
    }
    for (const run of runs.values()) await waitUntilIdle(run.server.pid);
    const used = (variant: Variant) => (readCpuSeconds(runs.get(variant)!.server.pid) ?? 0) - runs.get(variant)!.cpuAtStart;
    const control = used('control');
    const perEvent = (variant: Variant) => (used(variant) - control) / runs.get(variant)!.events;
    const figures = { journal: perEvent('journal'), direct: perEvent('direct') };
    for (const variant of ['journal', 'direct'] as const) await checkStored(runs.get(variant)!, lines.length);
    log('');
    log(`the idle control server used ${control.toFixed(2)} CPU s, taken off both`);
    log('| server | events | events/s while sending | CPU µs/event (merges included) | peak RSS MiB |');
    log('|---|---:|---:|---:|---:|');
    for (const variant of ['journal', 'direct'] as const) {
      const run = runs.get(variant)!;
      const peak = readPeakRss(run.server.pid);
      log(
        `| ${variant} | ${run.events} | ${Math.round(run.events / run.sendingSeconds)} | ${(figures[variant] * 1e6).toFixed(0)} | ${peak === null ? '–' : (peak / 2 ** 20).toFixed(0)} |`,
      );
    }
    log(`journal / direct: ${(figures.journal / figures.direct).toFixed(2)} × the CPU per event`);
    const cli = await cliCpuPerEvent(repoDir, lines);
    log(
      `vigil ingest of the same events from a file: ${(cli * 1e6).toFixed(0)} µs/event; journal / CLI ${(figures.journal / cli).toFixed(2)} ×, direct / CLI ${(figures.direct / cli).toFixed(2)} ×`,
    );
    return 0;
  } finally {
    await Promise.all(
      [...runs.values()].map(async ({ server, dataDir }) => {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }),
    );
  }
}

/** `vigil ingest`'s CPU per event for the lines as one file, less that of a one-line file. */
async function cliCpuPerEvent(repoDir: string, lines: readonly string[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-journal-cli-'));
  try {
    const cpuOf = async (name: string, content: readonly string[]) => {
      const file = join(dir, `${name}.ndjson`);
      writeFileSync(file, `${content.join('\n')}\n`);
      const [cmd, args] = vigilArgv(repoDir, 'ingest', '--tenant', 'default', '--index', 'bench', '--create-index', '--quiet', '--data-dir', join(dir, name), file);
      const run = await runMeasured(cmd, args, { cwd: dir, env: benchEnv() });
      if (run.exitCode !== 0 || run.cpuSeconds === null) throw new Error(`vigil ingest failed or was not timed: ${run.stderr.trim()}`);
      return run.cpuSeconds;
    };
    const one = await cpuOf('one', lines.slice(0, 1));
    return ((await cpuOf('all', lines)) - one) / (lines.length - 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function start(repoDir: string, variant: Variant): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), `vigil-bench-journal-${variant}-`));
  const server = await VigilServerProcess.start(repoDir, dataDir, { logPath: join(dataDir, 'server.log'), env: variants[variant] });
  const key = readFileSync(join(dataDir, 'bootstrap-key'), 'utf8').trim();
  // The index is created by a first request, before the CPU is counted from.
  await post({ server, key }, '{"message":"first"}\n');
  await waitUntilIdle(server.pid);
  return { server, dataDir, key, cpuAtStart: readCpuSeconds(server.pid) ?? 0, sendingSeconds: 0, events: 0 };
}

async function post(run: Pick<Run, 'server' | 'key'>, body: string): Promise<void> {
  const response = await fetch(`${run.server.url}/v1/ingest?tenant_id=default&index=bench&create_index=true`, {
    method: 'POST',
    headers: { authorization: `Bearer ${run.key}`, 'content-type': 'application/x-ndjson' },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`/v1/ingest answered ${response.status}: ${text.slice(0, 300)}`);
}

async function sendAll(run: Run, bodies: readonly string[], concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) await post(run, bodies[next++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** The server holds every event it was sent, and the first request's. */
async function checkStored(run: Run, expected: number): Promise<void> {
  const response = await fetch(`${run.server.url}/v1/blocking_query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${run.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant_id: 'default', query: '* | stats count() as n', start_time: '1900-01-01T00:00:00Z', end_time: '2262-01-01T00:00:00Z' }),
  });
  const body = (await response.json()) as { results: { rows: { columns: { n: unknown } }[] } };
  const found = Number(body.results.rows[0]?.columns.n);
  if (found !== expected + 1) throw new Error(`expected ${expected + 1} events, found ${found}`);
}
