import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCodes, VigilError } from './core/index.js';

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
 * Keeps the data dir its owner's alone (it holds the metadata, the sealing key and the engine's
 * files): everything this process creates from now on is owner-only whatever umask it was given
 * (chDB creates its files with the process umask, so 000 once gave 0777 folders), and the dir and
 * its entries that an older release left open to group or others are closed. Best effort for
 * the latter: a file another user owns, or a read-only mount, is left as it is.
 */
export function protectDataDir(path: string): void {
  const previous = process.umask(0o077);
  process.umask(previous | 0o077);
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
