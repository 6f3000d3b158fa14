import { execFileSync } from 'node:child_process';

/** `du -sb DIR` in bytes: a cross-check of the engine's own figure (it also counts logs, metadata and parts awaiting removal). */
export function diskUsageBytes(dir: string): number | null {
  try {
    return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
  } catch {
    return null;
  }
}
