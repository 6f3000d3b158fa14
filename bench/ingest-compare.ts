/**
 * `npm run bench -- ingest-compare --baseline DIR`: the CLI ingest of one replay file by this
 * checkout and by another (a worktree of the code to compare against, with its dist/ built),
 * alternately in one run, so both meet the same machine. Prints CPU time per event (all threads
 * of the vigil process), events/s, peak RSS and disk per raw byte, with ratios to the baseline.
 * `--cpus 0` (or `0,1`) runs both under taskset, for the scaling figures.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchCliIngest } from './ingest-cli-path.js';
import type { IngestRunResult } from './ingest-run-result.js';
import { startCompare } from './compare-setup.js';
import { wholeNumberOption } from './bench-options.js';

const usage = `usage: npm run bench -- ingest-compare --baseline DIR [options]
  --baseline DIR      another checkout (its dist/ built) to compare against
  --events N          at least N events in the replay file (default 250000)
  --dataset NAME      windows | mixed (default windows)
  --rounds N          runs of each checkout, alternating (default 1)
  --cpus LIST         taskset core list for both (e.g. 0 or 0,1); default all cores
  --anchor YYYY-MM-DD replay window's end (default today)
  --optimize          also OPTIMIZE FINAL each store and report the merged size
  --no-build          do not run tsc in this checkout first`;

interface Row {
  readonly tree: 'new' | 'baseline';
  readonly round: number;
  readonly result: IngestRunResult;
  readonly load: number;
}

export async function runIngestCompare(repoDir: string, argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      baseline: { type: 'string' },
      events: { type: 'string', default: '250000' },
      dataset: { type: 'string', default: 'windows' },
      rounds: { type: 'string', default: '1' },
      cpus: { type: 'string' },
      anchor: { type: 'string' },
      optimize: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const rounds = wholeNumberOption('rounds', values.rounds, usage);
  const started = await startCompare(repoDir, values, usage);
  if ('exitCode' in started) return started.exitCode;
  const { log, replay } = started;
  const trees = { new: repoDir, baseline: resolve(started.baseline) } as const;
  const rows: Row[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first, so a drift of the machine's load does not favour one.
    const order: (keyof typeof trees)[] = round % 2 === 0 ? ['baseline', 'new'] : ['new', 'baseline'];
    for (const tree of order) {
      const load = loadavg()[0] as number;
      log(`${tree} round ${round + 1}: ${trees[tree]}`);
      const result = await benchCliIngest({
        repoDir: trees[tree],
        file: replay.path,
        optimize: values.optimize,
        keepDataDir: false,
        ...(values.cpus !== undefined ? { cpus: values.cpus } : {}),
        log,
      });
      rows.push({ tree, round, result, load });
    }
  }
  const report = formatComparison(rows, replay.meta.rawBytes, values.cpus ?? 'all');
  process.stdout.write(report);
  const saved = join(repoDir, '.bench', 'results', `ingest-compare-${values.dataset}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  mkdirSync(dirname(saved), { recursive: true });
  writeFileSync(saved, `${JSON.stringify({ argv, replay, rows }, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
  log(`results saved to ${saved}`);
  return 0;
}

function formatComparison(rows: readonly Row[], rawBytes: number, cpus: string): string {
  const lines = [
    `cores: ${cpus}`,
    '| tree | round | events | CPU µs/event | events/s | peak RSS GiB | disk/raw as ingested | disk/raw merged | load |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const perEvent = (r: IngestRunResult) => (r.cpuSeconds === null ? NaN : (r.cpuSeconds * 1e6) / r.ingested);
  for (const { tree, round, result, load } of rows) {
    const merged = result.storage?.after ? (result.storage.after.bytesOnDisk / rawBytes).toFixed(3) : '–';
    lines.push(
      `| ${tree} | ${round + 1} | ${result.ingested} | ${perEvent(result).toFixed(1)} | ${Math.round(result.ingested / result.wallSeconds)} | ${((result.peakRssBytes ?? NaN) / 2 ** 30).toFixed(2)} | ${result.storage ? (result.storage.before.bytesOnDisk / rawBytes).toFixed(3) : '–'} | ${merged} | ${load.toFixed(1)} |`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const of = (tree: Row['tree'], f: (r: IngestRunResult) => number) => median(rows.filter((r) => r.tree === tree).map((r) => f(r.result)));
  const ratio = (f: (r: IngestRunResult) => number) => (of('new', f) / of('baseline', f)).toFixed(2);
  lines.push(
    '',
    `new / baseline (medians): CPU per event ${ratio(perEvent)}x, events/s ${ratio((r) => r.ingested / r.wallSeconds)}x, peak RSS ${ratio((r) => r.peakRssBytes ?? NaN)}x`,
    '',
  );
  return lines.join('\n');
}
