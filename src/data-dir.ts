import { chmodSync, closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { open, statfs, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCodes, VigilError, describeStorageFault, messageOf, storageFaultOf } from './core/index.js';

/**
 * Makes sure the data dir is a directory before anything opens it. Only commands that create data
 * (serve, demo, ingest, index create, keys create) may create a missing one: a mistyped
 * `--data-dir` for a command that only reads must fail, not answer "nothing here" from a new,
 * empty data dir.
 */
export function prepareDataDir(path: string, options: { create: boolean }): void {
  let isDirectory: boolean | null = null;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') throw notADirectory(path, error);
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new VigilError(ErrorCodes.unavailable, `cannot read data dir ${path}`, { cause: error });
  }
  if (isDirectory === true) return;
  if (isDirectory === false) throw notADirectory(path);
  if (!options.create) {
    throw new VigilError(
      ErrorCodes.notFound,
      `data dir ${path} does not exist (check --data-dir, VIGIL_DATA_DIR or data_dir in the config file; serve, demo, ingest, index create and keys create create it)`,
    );
  }
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EEXIST') throw notADirectory(path, error);
    throw new VigilError(ErrorCodes.unavailable, `cannot create data dir ${path}: ${code ?? String(error)}`, { cause: error });
  }
}

function notADirectory(path: string, cause?: unknown): VigilError {
  return new VigilError(ErrorCodes.invalidConfig, `data dir ${path} is not a directory (it, or a path above it, is a file)`, cause ? { cause } : {});
}

/**
 * Makes everything the `vigil` process creates from now on owner-only, whatever umask it was
 * given (chDB creates its files with the process umask, so 000 once gave 0777 folders). Process
 * wide, so only the process's entry point calls it (bin.ts), not a library opening a runtime
 * inside another program (a test runner whose other children must read their files).
 */
export function createOwnerOnlyFiles(): void {
  const previous = process.umask(0o077);
  process.umask(previous | 0o077);
}

/**
 * Keeps the data dir its owner's alone (it holds the metadata, the sealing key and the engine's
 * files): the dir and its entries that an older release left open to group or others are
 * closed, so nothing inside is reachable by others whatever the files' own modes. Best effort: a
 * file another user owns, or a read-only mount, is left as it is.
 */
export function protectDataDir(path: string): void {
  const entries = (() => {
    try {
      return readdirSync(path);
    } catch {
      return [];
    }
  })();
  for (const entry of ['', ...entries]) closeToOthers(entry === '' ? path : join(path, entry));
}

function closeToOthers(path: string): void {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || (stat.mode & 0o077) === 0) return;
    chmodSync(path, stat.mode & 0o700);
  } catch {
    // not ours to change (another owner, a read-only mount): the caller's next step reports what matters
  }
}

/** What a write probe writes: a block, so that a full disk cannot take it. */
const probeBytes = Buffer.alloc(4096);

/**
 * Fails, naming the real problem, unless a file can be created, written and synced in the data
 * dir. Run before anything opens it: a data dir that turned read-only or immutable once failed
 * with "ENOTDIR … scandir engine.lock" (removing a stale lock), and the store's shared memory
 * would be a SIGBUS.
 */
export function checkDataDirWritable(path: string): void {
  const probe = join(path, `.vigil-write-check-${process.pid}`);
  try {
    const fd = openSync(probe, 'w', 0o600);
    try {
      writeSync(fd, probeBytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw dataDirProblem(path, error);
  } finally {
    try {
      removeFile(probe);
    } catch {
      // the write failed already, or the dir turned read-only meanwhile: reported above or next time
    }
  }
}

function dataDirProblem(path: string, error: unknown): VigilError {
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  const fault = storageFaultOf(error);
  if (fault === 'full') return new VigilError(ErrorCodes.insufficientStorage, `data dir ${path} is on a full disk (${code}): free space first`, { cause: error });
  if (fault === 'not_writable') {
    return new VigilError(ErrorCodes.unavailable, `data dir ${path} cannot be written (${code}): make it writable (is it read-only, immutable, or another user's?)`, {
      cause: error,
    });
  }
  return new VigilError(ErrorCodes.unavailable, `data dir ${path} cannot be written: ${messageOf(error)}`, { cause: error });
}

/**
 * The readiness check of the data dir: at least `minFreeBytes` free on its disk (an engine insert
 * needs room for a whole part), and a block written and synced, then removed. Rejects with what
 * clients of `/readyz` may see (no path): the disk is (nearly) full, or the dir cannot be written.
 */
export async function probeDataDir(path: string, minFreeBytes: number): Promise<void> {
  const free = await dataDirFreeBytes(path).catch((error: unknown) => {
    // a data dir removed or unmounted under the server: no path for /readyz's clients, the cause has it
    throw new VigilError(ErrorCodes.unavailable, `the data dir cannot be read (${(error as NodeJS.ErrnoException).code ?? messageOf(error)})`, { cause: error });
  });
  if (free < minFreeBytes) {
    throw new VigilError(
      ErrorCodes.insufficientStorage,
      `the disk holding the data dir has ${free} bytes free, less than the ${minFreeBytes} the service keeps (data_dir_min_free_bytes)`,
    );
  }
  const probe = join(path, `.vigil-ready-check-${process.pid}`);
  try {
    const handle = await open(probe, 'w', 0o600);
    try {
      await handle.write(probeBytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    const { code, message } = describeStorageFault(storageFaultOf(error) ?? 'not_writable', 'writing to the data dir');
    throw new VigilError(code, message, { cause: error });
  } finally {
    await unlink(probe).catch(() => {});
  }
}

/** Bytes free for this process on the disk holding the data dir (the metric `vigil_data_dir_free_bytes`). */
export async function dataDirFreeBytes(path: string): Promise<number> {
  const stats = await statfs(path);
  return stats.bavail * stats.bsize;
}

/**
 * Removes a file, gone already or not. Not `rmSync`: on a file it may not remove (a read-only or
 * immutable dir) it tries it as a directory and fails with a misleading "ENOTDIR … scandir".
 */
export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
