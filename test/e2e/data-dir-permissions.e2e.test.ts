/**
 * Every file and folder vigil creates in its data dir is its owner's alone (README, "Security"),
 * whatever the umask: `vigil.db` was created 0644, and `engine/` 0777 under umask 000. The CLI
 * is run as a user's shell would run it, under umask 000.
 */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVigil } from '../support/vigil-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-perms-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every path under `root` (itself included) whose mode lets group or others in, with its mode. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const visit = (path: string): void => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) found.push(`${relative(root, path) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return found;
}

describe('the data dir under umask 000', () => {
  it('holds only owner-only files and folders after ingest and storing a secret, engine files included', async () => {
    const dataDir = join(dir, 'fresh', 'data');
    const file = join(dir, 'events.ndjson');
    writeFileSync(file, '{"ts":"2026-11-20T10:00:00Z","msg":"hello"}\n');
    const ingest = await runVigil(['ingest', '--tenant', 'acme', '--index', 'web', '--create-index', '--quiet', file], { dataDir, umask: '000' });
    expect(ingest.stderr).toBe('');
    expect(ingest.code).toBe(0);
    const chat = await runVigil(['integrations', 'chat', 'add', '--tenant', 'acme', '--token', '-'], { dataDir, umask: '000', input: 'xoxb-0000-test-token\n' });
    expect(chat.code, chat.stderr).toBe(0);
    expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['engine', 'vigil.db', 'secrets.key']));
    expect(openToOthers(join(dir, 'fresh'))).toEqual([]);
  });

  it('tightens a data dir an older release left open, on the next command that writes', async () => {
    const dataDir = join(dir, 'old');
    mkdirSync(join(dataDir, 'engine'), { recursive: true });
    writeFileSync(join(dataDir, 'vigil.db'), '');
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'engine'), 0o777);
    chmodSync(join(dataDir, 'vigil.db'), 0o644);
    const run = await runVigil(['keys', 'create', '--tenant', 'acme', '--json'], { dataDir, umask: '022' });
    expect(run.code, run.stderr).toBe(0);
    expect(openToOthers(dataDir)).toEqual([]);
  });
});
