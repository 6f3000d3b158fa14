import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError } from '../core/index.js';

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

const schemaHeader = /^#\s*schema:\s*\S+/;

/**
 * The rule files of a selection, in order: every `-f` file, then each directory's `.yaml` and
 * `.yml` files sorted by path (with `-r`, its subdirectories' too). In a directory only files
 * whose first line is a `# schema:` header count as rule files, as in a repository sync: other
 * YAML (CI workflows, configs) lives beside rules. `skipped` counts those left out.
 */
export function readRuleFileSelection(selection: RuleFileSelection): { files: RuleFileOnDisk[]; skipped: string[] } {
  const named = selection.file ?? [];
  const dirs = selection.dir ?? [];
  if (named.length === 0 && dirs.length === 0) throw new ValidationError('name rule files with -f FILE or a directory with -d DIR');
  const files: RuleFileOnDisk[] = named.map((path) => ({ path, text: readText(path) }));
  const skipped: string[] = [];
  for (const dir of dirs) {
    if (!isDirectory(dir)) throw new ValidationError(`${dir} is not a directory`, { field: 'dir' });
    for (const path of yamlFiles(dir, selection.recursive ?? false)) {
      const text = readText(path);
      if (schemaHeader.test(text.split('\n', 1)[0] ?? '')) files.push({ path, text });
      else skipped.push(path);
    }
  }
  return { files, skipped };
}

function yamlFiles(dir: string, recursive: boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (recursive && entry.name !== '.git') found.push(...yamlFiles(path, true));
    } else if (/\.ya?ml$/i.test(entry.name)) {
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
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ValidationError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { field: 'file' });
  }
}
