import { execFileSync } from 'node:child_process';
import { wholeNumberOption } from './bench-options.js';
import { ensureReplayFile, todayUtc, type ReplayFile } from './replay.js';

/** The options every `*-compare` bench shares. */
export interface CompareOptions {
  readonly baseline?: string;
  readonly help?: boolean;
  readonly 'no-build'?: boolean;
  readonly dataset: string;
  readonly events: string;
  readonly anchor?: string;
}

/**
 * The start of a comparison bench: prints the usage (and returns the exit code) when asked or
 * when no baseline is given; else builds this checkout (unless `--no-build`) and brings the
 * replay file both sides read.
 */
export async function startCompare(
  repoDir: string,
  values: CompareOptions,
  usage: string,
): Promise<{ exitCode: number } | { baseline: string; log: (line: string) => void; replay: ReplayFile }> {
  if (values.help || values.baseline === undefined) {
    process.stdout.write(`${usage}\n`);
    return { exitCode: values.help ? 0 : 2 };
  }
  const events = wholeNumberOption('events', values.events, usage);
  const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);
  if (!values['no-build']) execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: repoDir, stdio: 'inherit' });
  const replay = await ensureReplayFile({ repoDir, dataset: values.dataset, events, anchorDay: values.anchor ?? todayUtc(Date.now()), windowDays: 30 }, log);
  return { baseline: values.baseline, log, replay };
}
