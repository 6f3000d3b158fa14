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
  const before = await snapshot();
  let after = null;
  let optimizeSeconds = null;
  let optimizeError = null;
  if (flag === '--optimize') {
    const started = performance.now();
    try {
      await engine.optimize();
      optimizeSeconds = (performance.now() - started) / 1000;
      after = await snapshot();
    } catch (error) {
      // A failed merge is a finding to report, not a reason to lose the figures taken before it.
      optimizeError = `${error instanceof Error ? error.message : String(error)} (after ${((performance.now() - started) / 1000).toFixed(0)} s)`;
    }
  }
  process.stdout.write(`${JSON.stringify({ before, after, optimizeSeconds, optimizeError })}\n`);
} finally {
  await engine.close();
}

/**
 * The engine's figure (active parts of `logs`) beside `du`. Parts replaced by a merge stay on
 * disk until ClickHouse removes them (old_parts_lifetime, 8 minutes), so `du` can be far above
 * the steady state; `outdatedBytes` says how much of it that is.
 */
async function snapshot() {
  const stats = await engine.storageStats();
  const outdated = await engine.query<{ bytes: string }>('SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = currentDatabase() AND NOT active');
  return { ...stats, outdatedBytes: Number(outdated.rows[0]?.bytes ?? 0), duBytes: diskUsageBytes(engineDir!) };
}
