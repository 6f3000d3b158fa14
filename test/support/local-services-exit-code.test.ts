/**
 * Loading the test services must leave a process's exit code alone: `npm test` reports failure
 * only through the code vitest leaves in `process.exitCode` when its process ends.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('local services', () => {
  it('keep the exit code a process sets for itself (vitest reports failed tests so)', () => {
    const script = "await import('./test/support/local-services.ts'); process.exitCode = 3;";
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(3);
  });
});
