/**
 * The Chromium that the `@sparticuz/chromium` npm package ships (brotli-compressed inside the
 * package, so `npm install` alone brings it: no download at test time). It is decompressed once
 * into node_modules/.cache, keyed by the package's version, and reused by later runs.
 */
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createBrotliDecompress } from 'node:zlib';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const packageDir = join(repoRoot, 'node_modules/@sparticuz/chromium');

/** Flags for a headless, offline, throwaway browser (Playwright adds a new empty profile directory). */
export const chromiumFlags: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** The path of the decompressed Chromium, decompressing it on first use. */
export async function chromiumExecutable(): Promise<string> {
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const target = join(repoRoot, 'node_modules/.cache/vigil-chromium', version, 'chromium');
  if (existsSync(target)) return target;
  mkdirSync(dirname(target), { recursive: true });
  // Written aside and renamed: parallel test processes never run a half-written binary.
  const partial = `${target}.${process.pid}.partial`;
  await pipeline(createReadStream(join(packageDir, 'bin/chromium.br')), createBrotliDecompress(), createWriteStream(partial, { mode: 0o755 }));
  renameSync(partial, target);
  return target;
}
