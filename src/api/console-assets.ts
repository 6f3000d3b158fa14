import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/** One built file of the console, held in memory with its precompressed forms. */
export interface ConsoleAsset {
  readonly body: Buffer;
  readonly br: Buffer | null;
  readonly gzip: Buffer | null;
  readonly contentType: string;
  readonly etag: string;
  /** Under `assets/`: the name carries a content hash, so it may be cached for good. */
  readonly immutable: boolean;
}

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * The console's built files (`npm run build` writes them to dist/console, with `.br` and `.gz`
 * siblings made at build time), read once at start: a few hundred KB, served from memory with
 * no file system access per request. Null when the directory is absent (the console was not built).
 */
export function loadConsoleAssets(dir: string): Map<string, ConsoleAsset> | null {
  if (!existsSync(dir) || !existsSync(join(dir, 'index.html'))) return null;
  const assets = new Map<string, ConsoleAsset>();
  for (const file of listFiles(dir)) {
    const ext = extname(file);
    if (ext === '.br' || ext === '.gz') continue;
    const urlPath = '/' + relative(dir, file).split(sep).join('/');
    const body = readFileSync(file);
    assets.set(urlPath, {
      body,
      br: existsSync(`${file}.br`) ? readFileSync(`${file}.br`) : null,
      gzip: existsSync(`${file}.gz`) ? readFileSync(`${file}.gz`) : null,
      contentType: contentTypes[ext] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      immutable: urlPath.startsWith('/assets/'),
    });
  }
  return assets;
}

function listFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...listFiles(path));
    else files.push(path);
  }
  return files;
}

/** The encoding to send: brotli, else gzip, when the client accepts it and a precompressed copy exists. */
export function chooseEncoding(asset: ConsoleAsset, acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
    if (name && !refused) accepted.add(name);
  }
  if (asset.br && (accepted.has('br') || accepted.has('*'))) return 'br';
  if (asset.gzip && (accepted.has('gzip') || accepted.has('*'))) return 'gzip';
  return null;
}
