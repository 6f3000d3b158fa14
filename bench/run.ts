/**
 * `npm run bench -- NAME [options]`: runs one benchmark by name. Benchmarks are scripts that
 * print figures against targets; they are never part of `npm test`. Generated data and results
 * stay under `<repo>/.bench/` (gitignored).
 */
import { fileURLToPath } from 'node:url';
import { runConsoleBench } from './console-bench.js';
import { runDetectionsBench } from './detections-bench.js';
import { runFuzzParser } from './fuzz-parser.js';
import { runIngestBench } from './ingest-bench.js';
import { runIngestCompare } from './ingest-compare.js';
import { runJournalBench } from './journal-bench.js';
import { runPreviewBench } from './preview-bench.js';
import { runQueryBench } from './query-bench.js';
import { runQueryCompare } from './query-compare.js';
import { runShippersBench } from './shippers-bench.js';
import { runScaleOutBench } from './scale-out-bench.js';
import { runStoreBench } from './store-bench.js';

type Benchmark = (repoDir: string, argv: readonly string[]) => Promise<number>;

const benchmarks: Readonly<Record<string, Benchmark>> = {
  ingest: runIngestBench,
  'ingest-compare': runIngestCompare,
  journal: runJournalBench,
  query: runQueryBench,
  'query-compare': runQueryCompare,
  'fuzz-parser': runFuzzParser,
  detections: runDetectionsBench,
  console: runConsoleBench,
  preview: runPreviewBench,
  shippers: runShippersBench,
  'scale-out': runScaleOutBench,
  store: runStoreBench,
};

const repoDir = fileURLToPath(new URL('..', import.meta.url));
const [name, ...argv] = process.argv.slice(2);
const benchmark = name === undefined ? undefined : benchmarks[name];
if (!benchmark) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(benchmarks).join('|')}> [options]   (${name ?? 'no name'} is not a benchmark)\n`);
  process.exitCode = 2;
} else {
  try {
    process.exitCode = await benchmark(repoDir, argv);
  } catch (error) {
    process.stderr.write(`bench ${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof Error && error.cause) process.stderr.write(`  cause: ${String(error.cause)}\n`);
    process.exitCode = 1;
  }
}
