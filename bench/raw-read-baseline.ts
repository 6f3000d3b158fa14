import { execFileSync } from 'node:child_process';
import { runMeasured } from './measured-process.js';

export interface RawReadBaseline {
  /** The command timed, as a reader would type it. */
  readonly command: string;
  readonly seconds: number;
  readonly lines: number;
}

/**
 * The floor for any ingest of the file: decompressing it and counting lines, with nothing
 * parsed or written. `zcat | wc -l` always; ripgrep too when installed (it decompresses itself).
 */
export async function timeRawRead(file: string): Promise<RawReadBaseline[]> {
  const results: RawReadBaseline[] = [];
  // The path travels as $1, never spliced into the shell text.
  const zcat = await runMeasured('bash', ['-c', 'set -o pipefail; zcat -- "$1" | wc -l', 'baseline', file], {});
  if (zcat.exitCode !== 0) throw new Error(`zcat | wc -l failed: ${zcat.stderr.trim()}`);
  results.push({ command: 'zcat FILE | wc -l', seconds: zcat.wallSeconds, lines: Number(zcat.stdout.trim()) });
  if (hasCommand('rg')) {
    const rg = await runMeasured('rg', ['-z', '-c', '', '--', file], {});
    if (rg.exitCode === 0) results.push({ command: 'rg -z -c "" FILE', seconds: rg.wallSeconds, lines: Number(rg.stdout.trim()) });
  }
  return results;
}

function hasCommand(name: string): boolean {
  try {
    execFileSync('bash', ['-c', 'command -v -- "$1"', 'which', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
