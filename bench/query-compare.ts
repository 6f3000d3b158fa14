/**
 * `npm run bench -- query-compare --baseline DIR`: issue 3's query set over the same replayed
 * events, timed with this checkout's code on its data dir and with another checkout's code on
 * that checkout's own data dir of the same replay (what its `npm run bench -- query` loaded),
 * query by query and turn by turn in one run, so both meet the same machine. Prints median wall
 * and process CPU time per query with ratios to the baseline. Each side is one long-lived process
 * (bench/query-compare-child.ts), as warm as a server.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ensureCurrentSchema, ensureLoadedDataDir, ensureOptimizedCopy } from './query-dataset.js';
import { benchQueries, type PickedTerms } from './query-set.js';
import { latency } from './query-timing.js';
import { startCompare } from './compare-setup.js';
import { wholeNumberOption } from './bench-options.js';

const usage = `usage: npm run bench -- query-compare --baseline DIR [options]
  --baseline DIR      another checkout whose .bench holds its own data dir of the same replay
                      (made by its own: npm run bench -- query [--optimize] with the same options)
  --events N          at least N events in the replay file (default 5000000)
  --dataset NAME      mixed | windows (default mixed)
  --anchor YYYY-MM-DD the replay window's end (default today)
  --optimize          time both on the copies merged by OPTIMIZE TABLE … FINAL
  --rounds N          turns per query, alternating which side goes first (default 3)
  --runs N            timed runs per side and turn, after one warm-up run (default 3)
  --only A,B          only these queries (by name)
  --no-build          do not run tsc first`;

interface Side {
  readonly name: 'new' | 'baseline';
  readonly ask: (request: object) => Promise<unknown>;
  readonly stop: () => void;
}

function startSide(name: Side['name'], repoDir: string, tree: string, dataDir: string, startNs: bigint): Side {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', join(repoDir, 'bench', 'query-compare-child.ts'), tree, dataDir, String(startNs)], {
    cwd: tree,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  const lines: Interface = createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const ask = (request: object): Promise<unknown> =>
    new Promise((resolveAnswer, reject) => {
      waiting.push((line) => {
        const reply = JSON.parse(line) as { ok?: unknown; error?: string };
        if (reply.error !== undefined) reject(new Error(`${name}: ${reply.error}`));
        else resolveAnswer(reply.ok);
      });
      child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  return { name, ask, stop: () => child.stdin.end() };
}

interface Timed {
  readonly wallMs: number[];
  readonly cpuMs: number[];
  readonly rows: number;
}

export async function runQueryCompare(repoDir: string, argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      baseline: { type: 'string' },
      events: { type: 'string', default: '5000000' },
      dataset: { type: 'string', default: 'mixed' },
      anchor: { type: 'string' },
      optimize: { type: 'boolean', default: false },
      rounds: { type: 'string', default: '3' },
      runs: { type: 'string', default: '3' },
      only: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const rounds = wholeNumberOption('rounds', values.rounds, usage);
  const runs = wholeNumberOption('runs', values.runs, usage);
  const started = await startCompare(repoDir, values, usage);
  if ('exitCode' in started) return started.exitCode;
  const { log, replay } = started;
  const loaded = await ensureLoadedDataDir(repoDir, replay, log);
  const ours = values.optimize ? (await ensureOptimizedCopy(loaded, log)).dataDir : loaded.dataDir;
  await ensureCurrentSchema(ours, log);
  const baselineTree = resolve(started.baseline);
  const theirs = join(baselineTree, '.bench', basename(ours));
  if (!existsSync(join(theirs, 'loaded.json')))
    throw new Error(
      `no data dir ${theirs}: run npm run bench -- query${values.optimize ? ' --optimize' : ''} --events ${values.events} --dataset ${values.dataset} --anchor ${replay.meta.windowEnd.slice(0, 10)} in ${baselineTree} first`,
    );

  const startNs = BigInt(Date.parse(replay.meta.windowStart)) * 1_000_000n;
  const sides = [startSide('new', repoDir, repoDir, ours, startNs), startSide('baseline', repoDir, baselineTree, theirs, startNs)] as const;
  const loadBefore = loadavg()[0] ?? 0;
  try {
    const terms = (await sides[0].ask({ op: 'terms' })) as PickedTerms;
    const only = values.only?.split(',');
    const queries = benchQueries(terms).filter((q) => only === undefined || only.includes(q.name));
    const results = new Map<string, Record<Side['name'], Timed[]>>();
    for (const query of queries) {
      const turns: Record<Side['name'], Timed[]> = { new: [], baseline: [] };
      for (const side of sides) await side.ask({ op: 'time', text: query.text, maxRows: query.maxRows, runs: 1 });
      for (let round = 0; round < rounds; round++) {
        // Alternate which side goes first, so a drift of the machine's load favours neither.
        for (const side of round % 2 === 0 ? sides : [...sides].reverse())
          turns[side.name].push((await side.ask({ op: 'time', text: query.text, maxRows: query.maxRows, runs })) as Timed);
      }
      results.set(query.name, turns);
      log(`${query.name}: done`);
    }
    const loadAfter = loadavg()[0] ?? 0;
    const report = formatCompare(
      queries.map((q) => ({ name: q.name, text: q.text, turns: results.get(q.name)! })),
      {
        header: `new: ${ours}\nbaseline: ${theirs} (code of ${baselineTree})\n${rounds} turns × ${runs} runs per side and query, sides alternating; 1-min load ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
      },
    );
    process.stdout.write(report);
    const savePath = join(
      repoDir,
      '.bench',
      'results',
      `query-compare-${values.dataset}-n${values.events}${values.optimize ? '-optimized' : ''}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
    );
    mkdirSync(dirname(savePath), { recursive: true });
    writeFileSync(savePath, `${JSON.stringify({ argv, ours, theirs, baselineTree, terms, results: Object.fromEntries(results) }, null, 2)}\n`);
    log(`results saved to ${savePath}`);
    return 0;
  } finally {
    for (const side of sides) side.stop();
  }
}

function formatCompare(rows: readonly { name: string; text: string; turns: Record<Side['name'], Timed[]> }[], options: { header: string }): string {
  const median = (timed: Timed[], pick: (t: Timed) => number[]): number => latency(timed.flatMap(pick)).median;
  const lines = [
    options.header,
    '',
    '| query | text | new wall | baseline wall | wall ratio | new CPU | baseline CPU | CPU ratio | rows (new / baseline) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { name, text, turns } of rows) {
    const wall = [median(turns.new, (t) => t.wallMs), median(turns.baseline, (t) => t.wallMs)] as const;
    const cpu = [median(turns.new, (t) => t.cpuMs), median(turns.baseline, (t) => t.cpuMs)] as const;
    const rowsOf = (side: Timed[]): number => side.at(-1)?.rows ?? 0;
    lines.push(
      `| ${name} | \`${text.replace(/\|/g, '\\|')}\` | ${wall[0].toFixed(1)} ms | ${wall[1].toFixed(1)} ms | ${(wall[0] / wall[1]).toFixed(2)} | ${cpu[0].toFixed(1)} ms | ${cpu[1].toFixed(1)} ms | ${(cpu[0] / cpu[1]).toFixed(2)} | ${rowsOf(turns.new)} / ${rowsOf(turns.baseline)} |`,
    );
  }
  lines.push('', 'wall: SearchService.run, median of every timed run; CPU: the side process (Node and the in-process engine), per run.', '');
  return lines.join('\n');
}
