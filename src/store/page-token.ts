import { createHash } from 'node:crypto';
import { ValidationError } from '../core/index.js';
import type { Page } from './records.js';

/** A listing position: the sort key of the last row served, e.g. `[name, id]`. */
export type PageKey = readonly (string | number)[];

const tokenVersion = 1;
const maxTokenLength = 4096;
const base64url = /^[A-Za-z0-9_-]+$/;

/**
 * Encodes a position as an opaque page token: base64url of `{"v":1,"k":[...],"c":"..."}`.
 * Keyset tokens stay valid while rows come and go, and the same position always encodes to the
 * same token. The check digest is not a secret (tenant isolation comes from the query's tenant
 * filter, not from the token); it only turns hand-edited or truncated tokens into a clear error.
 */
export function encodePageToken(key: PageKey): string {
  return Buffer.from(JSON.stringify({ v: tokenVersion, k: key, c: checkOf(key) }), 'utf8').toString('base64url');
}

/** Decodes a token of encodePageToken; ValidationError on `pagination[page_token]` when malformed or altered. */
export function decodePageToken(token: string, arity: number): PageKey {
  if (token.length > maxTokenLength || !base64url.test(token)) throw invalidPageToken();
  const bytes = Buffer.from(token, 'base64url');
  // Buffer decoding is lenient; only the canonical spelling of the bytes is a token we issued.
  if (bytes.toString('base64url') !== token) throw invalidPageToken();
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw invalidPageToken(cause);
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalidPageToken();
  const { v, k, c } = parsed as Record<string, unknown>;
  if (v !== tokenVersion || !Array.isArray(k) || k.length !== arity || typeof c !== 'string') throw invalidPageToken();
  const key: (string | number)[] = [];
  for (const part of k as unknown[]) {
    if (typeof part === 'string' || (typeof part === 'number' && Number.isFinite(part))) key.push(part);
    else throw invalidPageToken();
  }
  if (c !== checkOf(key)) throw invalidPageToken();
  return key;
}

function checkOf(key: PageKey): string {
  return createHash('sha256')
    .update(JSON.stringify([tokenVersion, key]))
    .digest('base64url')
    .slice(0, 10);
}

function invalidPageToken(cause?: unknown): ValidationError {
  return new ValidationError('invalid page token', { field: 'pagination[page_token]', cause });
}

/** Every item of a paginated listing, reading page after page (`list` gets the previous page's token). */
export async function allPages<T>(list: (pageToken: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const all: T[] = [];
  let pageToken: string | undefined;
  do {
    const page = await list(pageToken);
    all.push(...page.items);
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken !== undefined);
  return all;
}
