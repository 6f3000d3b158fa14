/**
 * Runs a child process and measures it: wall time, peak resident memory and CPU time. GNU
 * `/usr/bin/time -v` gives the peak of the whole run; without it, VmHWM is polled from
 * /proc (which can miss a peak in the last poll interval, so the report says which was used).
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const gnuTime = '/usr/bin/time';

export interface MeasuredRun {
  readonly exitCode: number | null;
  readonly wallSeconds: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Peak resident set size in bytes, or null when it could not be read. */
  readonly peakRssBytes: number | null;
  readonly rssSource: 'time -v' | '/proc VmHWM' | 'none';
  /** User + system CPU seconds, when `/usr/bin/time` is there. */
  readonly cpuSeconds: number | null;
}

/** Runs `command args…` to completion, capturing its output. */
export async function runMeasured(command: string, args: readonly string[], options: Pick<SpawnOptions, 'cwd' | 'env'>): Promise<MeasuredRun> {
  const useTime = existsSync(gnuTime);
  const scratch = mkdtempSync(join(tmpdir(), 'vigil-bench-time-'));
  const timeFile = join(scratch, 'time.txt');
  const [file, argv] = useTime ? [gnuTime, ['-v', '-o', timeFile, command, ...args]] : [command, [...args]];
  const started = performance.now();
  const child = spawn(file, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  let polledPeak: number | null = null;
  const poll = useTime ? null : setInterval(() => (polledPeak = Math.max(polledPeak ?? 0, readPeakRss(child.pid!) ?? 0)), 200);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  const wallSeconds = (performance.now() - started) / 1000;
  if (poll) clearInterval(poll);
  try {
    if (!useTime) return { exitCode, wallSeconds, stdout, stderr, peakRssBytes: polledPeak, rssSource: polledPeak ? '/proc VmHWM' : 'none', cpuSeconds: null };
    const report = existsSync(timeFile) ? readFileSync(timeFile, 'utf8') : '';
    const field = (name: string): number | null => {
      const m = new RegExp(`${name}:\\s*([\\d.]+)`).exec(report);
      return m ? Number(m[1]) : null;
    };
    const rssKb = field('Maximum resident set size \\(kbytes\\)');
    const user = field('User time \\(seconds\\)');
    const system = field('System time \\(seconds\\)');
    return {
      exitCode,
      wallSeconds,
      stdout,
      stderr,
      peakRssBytes: rssKb === null ? null : rssKb * 1024,
      rssSource: rssKb === null ? 'none' : 'time -v',
      cpuSeconds: user === null || system === null ? null : user + system,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Peak resident set size (VmHWM) of a live process in bytes, or null when unreadable. */
export function readPeakRss(pid: number): number | null {
  try {
    const m = /VmHWM:\s*(\d+)\s*kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Waits until the process has used under 3 % of a core for a whole second (a server's merges
 * settled), at most 60 s.
 */
export async function waitUntilIdle(pid: number): Promise<void> {
  const deadline = performance.now() + 60_000;
  let before = readCpuSeconds(pid) ?? 0;
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = readCpuSeconds(pid) ?? 0;
    if (now - before < 0.03) return;
    before = now;
  }
}

/** CPU seconds (user + system) a live process has used so far, from /proc/<pid>/stat. */
export function readCpuSeconds(pid: number): number | null {
  return readStatCpuSeconds(`/proc/${pid}/stat`);
}

/**
 * CPU seconds of a live process's main thread alone (/proc/<pid>/task/<pid>/stat): for Node, the
 * JavaScript the process ran, without the engine's threads, garbage collection helpers or I/O.
 */
export function readMainThreadCpuSeconds(pid: number): number | null {
  return readStatCpuSeconds(`/proc/${pid}/task/${pid}/stat`);
}

function readStatCpuSeconds(path: string): number | null {
  try {
    const stat = readFileSync(path, 'utf8');
    // Fields after the command name (which may contain spaces) start at the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}
