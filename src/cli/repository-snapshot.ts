/**
 * What `vigil rules sync` uploads: the files of a rule repository zipped, and the commit they are.
 * In a git work tree the files are the tracked ones (`git ls-files`, as they are on disk) and the
 * commit is HEAD's, with `+dirty` when tracked files differ from it; elsewhere every file under the
 * folder except `.git`, and the commit and branch must be given.
 */
import { execFile } from 'node:child_process';
import { lstat, readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { zipSync, type Zippable } from 'fflate';
import { ValidationError } from '../core/index.js';

const run = promisify(execFile);

export interface RepositorySnapshot {
  readonly zip: Uint8Array;
  /** Paths in the zip, relative to the folder, `/`-separated. */
  readonly files: readonly string[];
  readonly commitSha: string;
  readonly commitMessage: string | null;
  readonly branch: string;
  /** True when the folder is (inside) a git work tree. */
  readonly fromGit: boolean;
}

export interface SnapshotOverrides {
  readonly commitSha?: string;
  readonly commitMessage?: string;
  readonly branch?: string;
}

/** Zips the repository in `dir` and finds its commit; ValidationError when the commit or branch cannot be known. */
export async function snapshotRepository(dir: string, overrides: SnapshotOverrides = {}): Promise<RepositorySnapshot> {
  const stat = await lstat(dir).catch(() => null);
  if (!stat?.isDirectory()) throw new ValidationError(`${dir} is not a directory`, { field: 'dir' });
  const git = await isGitWorkTree(dir);
  const listed = git ? await gitFiles(dir) : await walk(dir, dir);
  const entries: Zippable = {};
  const files: string[] = [];
  for (const path of listed.sort()) {
    const full = join(dir, ...path.split('/'));
    // Only regular files: a tracked symlink is a link in git, not the file it points at.
    const info = await lstat(full).catch(() => null);
    if (!info?.isFile()) continue;
    // A fixed time keeps the zip of the same files byte for byte the same.
    entries[path] = [await readFile(full), { mtime: new Date('2000-01-01T00:00:00Z') }];
    files.push(path);
  }
  const commit = git ? await gitCommit(dir) : null;
  const commitSha = overrides.commitSha ?? commit?.sha;
  const branch = overrides.branch ?? commit?.branch ?? undefined;
  if (commitSha === undefined) throw new ValidationError(`${dir} is not in a git work tree with a commit: pass --commit-sha`, { field: 'commit-sha' });
  if (branch === undefined) {
    throw new ValidationError(`${git ? 'HEAD is detached' : `${dir} is not in a git work tree`}: pass --branch`, { field: 'branch' });
  }
  return {
    zip: zipSync(entries, { level: 6 }),
    files,
    commitSha,
    commitMessage: overrides.commitMessage ?? commit?.message ?? null,
    branch,
    fromGit: git,
  };
}

async function isGitWorkTree(dir: string): Promise<boolean> {
  try {
    return (await git(dir, ['rev-parse', '--is-inside-work-tree'])).trim() === 'true';
  } catch {
    // no git here, or git itself is missing: take the folder as it is
    return false;
  }
}

/** Tracked files under `dir`, relative to it (git answers relative to the working directory). */
async function gitFiles(dir: string): Promise<string[]> {
  const out = await git(dir, ['ls-files', '-z', '--', '.']);
  return out.split('\0').filter((path) => path !== '');
}

/** HEAD's sha (with `+dirty` when tracked files under `dir` changed), message and branch; null before the first commit. */
async function gitCommit(dir: string): Promise<{ sha: string; message: string; branch: string | null } | null> {
  let sha: string;
  try {
    sha = (await git(dir, ['rev-parse', '--verify', 'HEAD'])).trim();
  } catch {
    return null;
  }
  const dirty = (await git(dir, ['status', '--porcelain', '--untracked-files=no', '--', '.'])).trim() !== '';
  const message = (await git(dir, ['log', '-1', '--format=%B'])).trim();
  const ref = (await git(dir, ['rev-parse', '--abbrev-ref', 'HEAD'])).trim();
  return { sha: dirty ? `${sha}+dirty` : sha, message, branch: ref === 'HEAD' ? null : ref };
}

async function git(dir: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run('git', [...args], { cwd: dir, maxBuffer: 256 << 20, encoding: 'utf8' });
  return stdout;
}

/** Every file under `dir` except `.git`, relative to `root`. */
async function walk(root: string, dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(root, full)));
    else if (entry.isFile()) out.push(relative(root, full).split(sep).join('/'));
  }
  return out;
}
