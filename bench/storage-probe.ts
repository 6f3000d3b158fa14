/**
 * Child-process script: opens an engine data directory with the real chDB adapter and prints its
 * storage figures as JSON, before and (with --optimize) after merging every part. It runs in its
 * own process because chDB is one engine per process: the bench can then measure several data
 * directories in one run. Usage: tsx bench/storage-probe.ts ENGINE_DIR [--optimize]
 */
import { ChdbEngine } from '../src/engine/chdb/index.js';
import { diskUsageBytes } from './disk-usage.js';

const [engineDir, flag] = process.argv.slice(2);
if (!engineDir) throw new Error('usage: storage-probe ENGINE_DIR [--optimize]');

// OPTIMIZE FINAL over gigabytes runs longer than the adapter's default 300 s query limit.
const engine = new ChdbEngine({ path: engineDir, poolSize: 1, maxExecutionTimeS: 7200 });
try {
  await engine.init();
  const before = { ...(await engine.storageStats()), duBytes: diskUsageBytes(engineDir) };
  let after = null;
  let optimizeSeconds = null;
  if (flag === '--optimize') {
    const started = performance.now();
    await engine.optimize();
    optimizeSeconds = (performance.now() - started) / 1000;
    after = { ...(await engine.storageStats()), duBytes: diskUsageBytes(engineDir) };
  }
  process.stdout.write(`${JSON.stringify({ before, after, optimizeSeconds })}\n`);
} finally {
  await engine.close();
}
