import { join } from 'node:path';

/** `node <repo>/bin/vigil.js`: the installed command, which runs the compiled dist/. */
export function vigilArgv(repoDir: string, ...args: string[]): [string, string[]] {
  return vigilArgvWithNodeFlags(repoDir, [], ...args);
}

/** The same with flags for node itself, e.g. `--cpu-prof`. */
export function vigilArgvWithNodeFlags(repoDir: string, nodeFlags: readonly string[], ...args: string[]): [string, string[]] {
  return [process.execPath, [...nodeFlags, join(repoDir, 'bin', 'vigil.js'), ...args]];
}

/**
 * The environment for vigil children: ours without `VIGIL_*` and `CLICKHOUSE_URL`, so a setting
 * of the person running the bench cannot change what is measured, plus `extra`.
 */
export function benchEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('VIGIL_') && key !== 'CLICKHOUSE_URL') env[key] = value;
  }
  return { ...env, ...extra };
}
