/**
 * Faults a test can inject into a data dir, as an operator's machine would have them: a data dir
 * that stops being writable, and a full disk. Each answers a way to undo it, or why it cannot be
 * done here (the test then skips, printing the reason).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';

export const isRoot = process.getuid?.() === 0;

/** Undoes a fault; safe to call twice. */
export type Undo = () => void;

/**
 * Makes every file and folder of `dir` unwritable while the service holds them open: for root,
 * immutable (`chattr +i`, what the report did; root ignores permission bits), otherwise read-only
 * by mode. A string when neither works on this file system.
 */
export function makeUnwritable(dir: string): Undo | string {
  if (isRoot) {
    chattr('+i', dir);
    if (!writableByProbe(dir)) return once(() => chattr('-i', dir));
    chattr('-i', dir);
    return `chattr +i does not work on the file system of ${dir} (tmpfs and overlay file systems refuse it)`;
  }
  execFileSync('chmod', ['-R', 'a-w', dir]);
  if (!writableByProbe(dir)) return once(() => execFileSync('chmod', ['-R', 'u+w', dir]));
  execFileSync('chmod', ['-R', 'u+w', dir]);
  return `chmod a-w does not stop writes to ${dir} here`;
}

/** A tmpfs of `sizeMb` MB mounted at `dir` (root only), or why not. */
export function mountTmpfs(dir: string, sizeMb: number): Undo | string {
  if (!isRoot) return 'a small file system needs root to mount (CI runs as root)';
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    return `mounting a tmpfs failed: ${(error as Error).message.split('\n')[0]}`;
  }
  return once(() => execFileSync('umount', ['-l', dir], { stdio: 'ignore' }));
}

/** Fills the disk holding `dir` to its last byte with a file of its own; undoing removes it. */
export async function fillDisk(dir: string): Promise<Undo> {
  const filler = join(dir, 'filler');
  const { bavail, bsize } = await statfs(dir);
  try {
    writeFileSync(filler, Buffer.alloc(bavail * bsize + (1 << 20)));
  } catch (error) {
    // ENOSPC is the point: the part written stays and fills the disk
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  return once(() => rmSync(filler, { force: true }));
}

/** `chattr -R` over a tree; its exit status is ignored: symlinks (chDB's metadata links) take no attributes. */
function chattr(flag: '+i' | '-i', dir: string): void {
  try {
    execFileSync('chattr', ['-R', '-f', flag, dir], { stdio: 'ignore' });
  } catch {
    // the rest of the tree got the flag; whether writes now fail is probed by the caller
  }
}

function writableByProbe(dir: string): boolean {
  const probe = join(dir, '.probe');
  try {
    writeFileSync(probe, 'x');
    rmSync(probe);
    return true;
  } catch {
    return false;
  }
}

function once(undo: () => void): Undo {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    undo();
  };
}
