import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCodes } from './core/index.js';
import { checkDataDirWritable, probeDataDir, prepareDataDir } from './data-dir.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-data-dir-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('prepareDataDir', () => {
  it('accepts an existing directory, whether or not it may create one', () => {
    expect(() => prepareDataDir(dir, { create: false })).not.toThrow();
    expect(() => prepareDataDir(dir, { create: true })).not.toThrow();
  });

  it('refuses a missing directory it may not create, naming it, and creates nothing', () => {
    const missing = join(dir, 'typo', 'data');
    expect(() => prepareDataDir(missing, { create: false })).toThrow(`data dir ${missing} does not exist`);
    expect(existsSync(join(dir, 'typo'))).toBe(false);
  });

  it('creates a missing directory (and its parents) when it may', () => {
    const fresh = join(dir, 'a', 'data');
    prepareDataDir(fresh, { create: true });
    expect(statSync(fresh).isDirectory()).toBe(true);
  });

  it('refuses a file, or a path under a file, with a message naming it', () => {
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    for (const create of [false, true]) {
      expect(() => prepareDataDir(file, { create })).toThrow(`data dir ${file} is not a directory`);
      expect(() => prepareDataDir(join(file, 'data'), { create })).toThrow(`data dir ${join(file, 'data')} is not a directory`);
    }
  });
});

describe('probeDataDir (readiness) and checkDataDirWritable (startup)', () => {
  it('pass on a writable data dir with room, and leave no probe behind', async () => {
    await expect(probeDataDir(dir, 0)).resolves.toBeUndefined();
    expect(() => checkDataDirWritable(dir)).not.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fail readiness with insufficient_storage, without the path, when less than the minimum is free', async () => {
    const failure = await probeDataDir(dir, Number.MAX_SAFE_INTEGER).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: ErrorCodes.insufficientStorage,
      message: expect.stringMatching(/^the disk holding the data dir has \d+ bytes free, less than the \d+ the service keeps \(data_dir_min_free_bytes\)$/),
    });
  });

  it('name a data dir that is gone, without its path for readiness', async () => {
    const gone = join(dir, 'gone');
    await expect(probeDataDir(gone, 0)).rejects.toThrow(/^the data dir cannot be read \(ENOENT\)$/);
    expect(() => checkDataDirWritable(gone)).toThrow(`data dir ${gone} cannot be written`);
  });
});
