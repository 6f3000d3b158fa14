import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const binTs = join(repoRoot, 'src/bin.ts');

/** Environment for a child vigil: only what the test sets, plus PATH and HOME. */
function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, VIGIL_DATA_DIR: dataDir, VIGIL_LOG_LEVEL: 'warn', ...extra };
}

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `vigil ARGS…` from the sources (through tsx), as a user would from a shell. With
 * `closedStdout` the reader of its standard output is gone before it prints (as after `| head`).
 */
export function runVigil(
  args: readonly string[],
  options: { dataDir: string; input?: Buffer | string; env?: Record<string, string>; closedStdout?: boolean; umask?: string },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const argv = [process.execPath, '--import', 'tsx', binTs, ...args];
    // With `umask`, a shell sets it and then becomes vigil, as a user's shell would.
    const [command, ...commandArgs] = options.umask === undefined ? argv : ['/bin/sh', '-c', `umask ${options.umask} && exec "$@"`, 'sh', ...argv];
    const child = spawn(command as string, commandArgs, { cwd: repoRoot, env: childEnv(options.dataDir, options.env) });
    if (options.closedStdout) child.stdout.destroy();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
    child.stdin.end(options.input ?? '');
  });
}

export interface ServerProcess {
  readonly url: string;
  /** The admin key the first start printed and saved in data/bootstrap-key. */
  readonly bootstrapKey: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly pid: number;
  /** Settles when the process ends, with its exit code (-1 when a signal ended it). */
  readonly exited: Promise<number>;
  stop(): Promise<number>;
  /** `kill -9`: no shutdown at all. */
  kill(): Promise<number>;
}

/** Starts `vigil serve` on a free port and waits until it announces itself in server.json. */
export async function startVigilServer(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', binTs, 'serve', '--port', '0'], {
    cwd: repoRoot,
    env: childEnv(dataDir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  const infoFile = join(dataDir, 'server.json');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vigil serve exited with ${child.exitCode}: ${stderr}`);
    if (existsSync(infoFile)) {
      const info = JSON.parse(readFileSync(infoFile, 'utf8')) as { url: string; pid: number };
      if (info.pid === child.pid) {
        return {
          url: info.url,
          bootstrapKey: readFileSync(join(dataDir, 'bootstrap-key'), 'utf8').trim(),
          stdout: () => stdout,
          stderr: () => stderr,
          pid: child.pid as number,
          exited,
          async stop() {
            child.kill('SIGTERM');
            return exited;
          },
          async kill() {
            child.kill('SIGKILL');
            await exited;
            return -9;
          },
        };
      }
    }
    if (Date.now() > deadline) throw new Error(`vigil serve did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A small fetch wrapper that returns status and parsed JSON. */
export async function call(url: string, init: RequestInit & { key?: string } = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  const response = await fetch(url, { ...init, headers });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (metrics): keep the text
  }
  return { status: response.status, body, headers: response.headers };
}
