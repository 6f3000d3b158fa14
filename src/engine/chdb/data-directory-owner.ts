import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The process that holds a chDB data directory, as its `status` file tells. */
export interface DataDirectoryOwner {
  readonly pid: number;
  readonly startedAt: string;
}

/**
 * Reads `<path>/status`, which the engine writes and holds under an exclusive flock while the
 * directory is open, and removes on a clean close. A file left by a killed process is stale
 * (its lock died with it), so only a failed open proves that the owner is alive.
 */
export function readDataDirectoryOwner(path: string): DataDirectoryOwner | null {
  let text: string;
  try {
    text = readFileSync(join(path, 'status'), 'utf8');
  } catch {
    return null;
  }
  const pid = /^PID:\s*(\d+)/m.exec(text)?.[1];
  if (pid === undefined) return null;
  return { pid: Number(pid), startedAt: /^Started at:\s*(.+)$/m.exec(text)?.[1]?.trim() ?? '' };
}
