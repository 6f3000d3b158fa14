import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineError, ErrorCodes } from '../../core/index.js';
import { ChdbEngine } from './chdb-engine.js';
import { readDataDirectoryOwner } from './data-directory-owner.js';

// Two processes on one data directory: the engine locks `<path>/status` (flock) while open, so
// the CLI can tell that a server holds the directory. This file's process opens only `path`.
const path = mkdtempSync(join(tmpdir(), 'vigil-chdb-lock-'));

afterAll(() => {
  rmSync(path, { recursive: true, force: true });
});

/** Starts a plain node process that opens the directory and keeps it until killed. */
async function holdDirectory(dir: string): Promise<ChildProcess> {
  const script = "import { Session } from 'chdb'; const s = new Session(process.argv[1]); await s.queryAsync('SELECT 1'); console.log('ready'); setInterval(() => {}, 1000);";
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, dir], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  expect(line.toString()).toContain('ready');
  return child;
}

describe('data directory held by another process', () => {
  it('opening fails as unavailable and names the holder; after it dies, the directory opens again', async () => {
    const holder = await holdDirectory(path);
    try {
      expect(readDataDirectoryOwner(path)).toMatchObject({ pid: holder.pid });
      const blocked = new ChdbEngine({ path });
      const error = await blocked.ping().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).code).toBe(ErrorCodes.unavailable);
      expect((error as EngineError).message).toContain(`(held by pid ${holder.pid} since `);
      await blocked.close();
    } finally {
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    }
    // A killed holder leaves its status file behind, but its lock died with it.
    expect(existsSync(join(path, 'status'))).toBe(true);
    const engine = new ChdbEngine({ path });
    await engine.init();
    expect(readDataDirectoryOwner(path)?.pid).toBe(process.pid);
    await engine.close();
    // A clean close removes the status file: no holder is left to report.
    expect(readDataDirectoryOwner(path)).toBeNull();
  });

  it('a directory without a status file has no owner', () => {
    expect(readDataDirectoryOwner(join(path, 'nowhere'))).toBeNull();
  });
});
