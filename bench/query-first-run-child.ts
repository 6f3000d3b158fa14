/**
 * One search in a process of its own (for `npm run bench -- query --first-run`): opens the
 * product over the data dir, warms the engine up with a search that finds nothing, then times
 * the given query once and prints `{"ms": …, "rows": …}`.
 * Arguments: DATA_DIR START_NS END_NS QUERY.
 */
import { benchTenant, openBenchRuntime } from './query-dataset.js';
import { pageRows } from './query-set.js';

const [dataDir, startText, endText, text] = process.argv.slice(2);
if (dataDir === undefined || startText === undefined || endText === undefined || text === undefined) throw new Error('usage: query-first-run-child DATA_DIR START_NS END_NS QUERY');
const range = { startNs: BigInt(startText), endNs: BigInt(endText) };
const runtime = await openBenchRuntime(dataDir);
try {
  const search = runtime.services.search;
  if (!search) throw new Error('the runtime has no search service');
  await search.run(benchTenant, 'vigilbenchnosuchword', range, { maxRows: 10 }); // opens sessions and reads the catalog
  const started = performance.now();
  const result = await search.run(benchTenant, text, range, { maxRows: pageRows });
  process.stdout.write(`${JSON.stringify({ ms: performance.now() - started, rows: result.rows.length })}\n`);
} finally {
  await runtime.close();
}
