/**
 * A mistyped data dir: commands that only read refuse a missing one (exit 1, naming it) and create
 * nothing; commands that create data create it; a file is refused with a clear message.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVigil } from '../support/vigil-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-cli-data-dir-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--data-dir that does not exist', () => {
  it.each([
    ['index list', ['index', 'list', '--tenant', 'default']],
    ['keys list', ['keys', 'list']],
    ['query', ['query', '*']],
  ])('%s fails naming it and creates nothing', async (_, argv) => {
    const missing = join(dir, 'missing', 'dir');
    const run = await runVigil([...argv, '--data-dir', missing], { dataDir: join(dir, 'unused') });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`vigil: data dir ${missing} does not exist (check --data-dir, VIGIL_DATA_DIR or data_dir in the config file; serve, demo, ingest, index create and keys create create it)\n`);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
    expect(existsSync(join(dir, 'unused'))).toBe(false);
  });

  it('is created by keys create, and then read by keys list', async () => {
    const fresh = join(dir, 'fresh', 'data');
    const created = await runVigil(['keys', 'create', '--tenant', 'acme', '--json'], { dataDir: fresh });
    expect(created.code).toBe(0);
    expect(readdirSync(fresh)).toContain('vigil.db');
    const listed = await runVigil(['keys', 'list', '--json'], { dataDir: fresh });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(JSON.parse(created.stdout).id);
  });

  it('is refused when it is a file, by reading and creating commands alike', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    for (const argv of [['index', 'list', '--tenant', 'default'], ['index', 'create', 'web', '--tenant', 'default']]) {
      const run = await runVigil(argv, { dataDir: file });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`vigil: data dir ${file} is not a directory (it, or a path above it, is a file)\n`);
    }
  });
});
