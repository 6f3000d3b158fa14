/**
 * The browser tests test the console's current sources: when any file under console/ is newer
 * than the built dist/console (or it is missing), it is built again first, as `npm run
 * build:console` would (a few seconds). After `npm install` it is up to date and nothing runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
export const consoleDist = join(repoRoot, 'dist/console');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

export function buildConsoleIfStale(): void {
  const built = join(consoleDist, 'index.html');
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(join(repoRoot, 'console'))) return;
  execFileSync(process.execPath, [join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'console/vite.config.ts', '--logLevel', 'warn'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
}
