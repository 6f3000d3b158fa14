/**
 * `vigil serve` as a child process of a bench: started on port 0 over a data dir, its address
 * read from the `server.json` it writes once listening, its output appended to a log file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchEnv, vigilArgv } from './vigil-command.js';

export interface VigilServerOptions {
  /** Where the server's output goes (appended). */
  readonly logPath: string;
  /** `VIGIL_*` settings on top of `VIGIL_DATA_DIR` (the caller's own are never passed on). */
  readonly env?: Readonly<Record<string, string>>;
}

export class VigilServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    private readonly exited: Promise<number | null>,
    readonly url: string,
  ) {}

  /** Starts `node bin/vigil.js serve --port 0` (the compiled dist/) and waits until it listens. */
  static async start(repoDir: string, dataDir: string, options: VigilServerOptions): Promise<VigilServerProcess> {
    const logFd = openSync(options.logPath, 'a');
    const [node, args] = vigilArgv(repoDir, 'serve', '--port', '0');
    const child = spawn(node, args, { cwd: dataDir, env: benchEnv({ ...options.env, VIGIL_DATA_DIR: dataDir }), stdio: ['ignore', logFd, logFd] });
    closeSync(logFd);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await waitForServer(dataDir, child, options.logPath);
      return new VigilServerProcess(child, exited, url);
    } catch (error) {
      await stop(child, exited);
      throw error;
    }
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** SIGTERM, then SIGKILL if the server has not stopped within a minute; a no-op once stopped. */
  stop(): Promise<void> {
    return stop(this.child, this.exited);
  }
}

/** Waits for `<dataDir>/server.json` written by this server (a stale one names another pid). */
async function waitForServer(dataDir: string, server: ChildProcess, logPath: string): Promise<string> {
  const infoPath = join(dataDir, 'server.json');
  for (let waited = 0; waited < 120_000; waited += 100) {
    if (server.exitCode !== null) throw new Error(`vigil serve exited with ${server.exitCode}: ${readFileSync(logPath, 'utf8').slice(-2000)}`);
    if (existsSync(infoPath)) {
      try {
        const info = JSON.parse(readFileSync(infoPath, 'utf8')) as { url: string; pid?: number };
        if (info.pid === undefined || info.pid === server.pid) return info.url;
      } catch {
        // Caught mid-write; read it again on the next turn.
      }
    }
    await sleep(100);
  }
  throw new Error(`vigil serve did not write ${infoPath} within 120 s: ${readFileSync(logPath, 'utf8').slice(-2000)}`);
}

async function stop(server: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 60_000);
  await exited;
  clearTimeout(timer);
}
