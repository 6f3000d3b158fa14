import { readFileSync } from 'node:fs';

/** The package version, read once from package.json beside dist/ or src/. */
export const vigilVersion: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
