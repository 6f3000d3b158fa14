import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ValidationError } from '../core/index.js';
import { classifyRepositoryFile } from '../detections/index.js';

/** Which files `vigil rules validate|test` reads: `-f` files as named, `-d` directories searched. */
export interface RuleFileSelection {
  readonly file?: readonly string[];
  readonly dir?: readonly string[];
  readonly recursive?: boolean;
}

/** A rule file to check: the path it is reported under and its text. */
export interface RuleFileOnDisk {
  readonly path: string;
  readonly text: string;
}

/** A YAML file of a directory that is not a rule file, and why (as a repository sync says it). */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

/**
 * The rule files of a selection, in order: every `-f` file, then each directory's files sorted by
 * path (with `-r`, its subdirectories' too, `.git` aside). In a directory a file is a rule file
 * exactly when a repository sync would take it as one (`classifyRepositoryFile`, with its path
 * relative to the directory), so a local check passes or fails on the files the sync reads.
 * `skipped` lists the YAML files left out, with the reason.
 */
export function readRuleFileSelection(selection: RuleFileSelection): { files: RuleFileOnDisk[]; skipped: SkippedFile[] } {
  const named = selection.file ?? [];
  const dirs = selection.dir ?? [];
  if (named.length === 0 && dirs.length === 0) throw new ValidationError('name rule files with -f FILE or a directory with -d DIR');
  const files: RuleFileOnDisk[] = named.map((path) => ({ path, text: readText(path) }));
  const skipped: SkippedFile[] = [];
  for (const dir of dirs) {
    if (!isDirectory(dir)) throw new ValidationError(`${dir} is not a directory`, { field: 'dir' });
    for (const path of filesUnder(dir, selection.recursive ?? false)) {
      const kind = classifyRepositoryFile(relative(dir, path).split(sep).join('/'), () => readBytes(path));
      if (kind.kind === 'rule') files.push({ path, text: kind.text });
      else if (kind.kind === 'ignored') skipped.push({ path, reason: kind.reason });
    }
  }
  return { files, skipped };
}

function filesUnder(dir: string, recursive: boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (recursive && entry.name !== '.git') found.push(...filesUnder(path, true));
    } else {
      found.push(path);
    }
  }
  return found.sort();
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function readText(path: string): string {
  return readBytes(path).toString('utf8');
}

function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ValidationError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { field: 'file' });
  }
}
