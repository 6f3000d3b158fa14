import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Main-thread time of a V8 CPU profile: idle share (waiting, e.g. on engine inserts) and top functions. */
export interface CpuProfileSummary {
  readonly file: string;
  readonly totalSeconds: number;
  /** Main thread idle: nothing to run in JS, so it waits on I/O or native work (chDB inserts run off-thread). */
  readonly idleSeconds: number;
  readonly garbageCollectorSeconds: number;
  /** Self time by function, most first. */
  readonly top: readonly { readonly name: string; readonly seconds: number }[];
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Summarizes the main thread's newest `.cpuprofile` that `node --cpu-prof --cpu-prof-dir=DIR`
 * left in `dir`. Worker threads (the SQLite store's) write their own files, named
 * `CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile`; the main thread's id is 0.
 */
export function summarizeCpuProfile(dir: string, topN = 12): CpuProfileSummary | null {
  const file = readdirSync(dir)
    .filter((f) => /\.0\.\d+\.cpuprofile$/.test(f))
    .sort()
    .pop();
  if (!file) return null;
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byName = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? ` ${url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${lineNumber + 1}` : '';
    const name = `${functionName || '(anonymous)'}${where}`;
    byName.set(name, (byName.get(name) ?? 0) + (selfUs.get(node.id) ?? 0) / 1e6);
  }
  const total = [...byName.values()].reduce((a, b) => a + b, 0);
  return {
    file: join(dir, file),
    totalSeconds: total,
    idleSeconds: byName.get('(idle)') ?? 0,
    garbageCollectorSeconds: byName.get('(garbage collector)') ?? 0,
    top: [...byName.entries()]
      .filter(([name]) => name !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, topN)
      .map(([name, seconds]) => ({ name, seconds })),
  };
}
