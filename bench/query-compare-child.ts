/**
 * One side of `query-compare`: opens a data dir with the code of one checkout (TREE's own
 * bench/query-dataset.ts and src/, loaded by tsx) and answers requests on stdin, one JSON line
 * each, with one JSON line on stdout:
 *   {"op":"terms"}                       → the picked terms (this checkout's pickTerms)
 *   {"op":"time","text":T,"maxRows":N,"runs":R} → wall and process CPU ms of each run, and rows
 * The process stays open between requests, so its engine is as warm as a server's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const [tree, dataDir, startNsText] = process.argv.slice(2);
if (tree === undefined || dataDir === undefined || startNsText === undefined) throw new Error('usage: query-compare-child.ts TREE DATADIR START_NS');
const dataset = (await import(pathToFileURL(join(tree, 'bench', 'query-dataset.ts')).href)) as typeof import('./query-dataset.js');
const loadedAt = (JSON.parse(readFileSync(join(dataDir, 'loaded.json'), 'utf8')) as { loadedAt: string }).loadedAt;
const range = { startNs: BigInt(startNsText), endNs: BigInt(Date.parse(loadedAt) + 3_600_000) * 1_000_000n };
const runtime = await dataset.openBenchRuntime(dataDir);
const search = runtime.services.search!;

type Request = { op: 'terms' } | { op: 'time'; text: string; maxRows: number; runs: number };

async function answer(request: Request): Promise<unknown> {
  if (request.op === 'terms') {
    // Loaded only when asked (of the new side): the baseline's process runs its own code alone.
    const { pickTerms } = (await import('./query-set.js')) as typeof import('./query-set.js');
    return pickTerms(runtime.engine!, search, range, () => {});
  }
  const options = { maxRows: request.maxRows, order: 'desc' as const };
  const wallMs: number[] = [];
  const cpuMs: number[] = [];
  let rows = 0;
  for (let i = 0; i < request.runs; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    rows = (await search.run(dataset.benchTenant, request.text, range, options)).rows.length;
    wallMs.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
  }
  return { wallMs, cpuMs, rows };
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === '') continue;
  try {
    process.stdout.write(`${JSON.stringify({ ok: await answer(JSON.parse(line) as Request) })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: String(error instanceof Error ? (error.stack ?? error.message) : error) })}\n`);
  }
}
await runtime.close();
