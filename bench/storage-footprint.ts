import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { EngineStorageStats } from '../src/engine/index.js';

/** The engine's figures, bytes of outdated parts not yet removed, and `du -sb` of the engine dir. */
export type StorageSnapshot = EngineStorageStats & { readonly outdatedBytes: number; readonly duBytes: number | null };

export interface StorageFootprint {
  readonly before: StorageSnapshot;
  /** After `OPTIMIZE … FINAL`, when asked for. */
  readonly after: StorageSnapshot | null;
  readonly optimizeSeconds: number | null;
  /** Why OPTIMIZE FINAL failed, when it did. */
  readonly optimizeError: string | null;
}

/** Storage figures of an engine data directory, read by bench/storage-probe.ts in a child process. */
export async function measureStorage(repoDir: string, engineDir: string, optimize: boolean): Promise<StorageFootprint> {
  const args = ['--import', 'tsx', join(repoDir, 'bench', 'storage-probe.ts'), engineDir, ...(optimize ? ['--optimize'] : [])];
  const child = spawn(process.execPath, args, { cwd: repoDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const line = stdout.trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new Error(`storage probe of ${engineDir} failed (exit ${code}): ${stderr.trim().slice(-2000)}`);
  return JSON.parse(line) as StorageFootprint;
}
