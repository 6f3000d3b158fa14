/**
 * docs/interface.md, the API reference code comments cite, against the OpenAPI document the
 * server serves: every endpoint its tables list is served and documented there, and every
 * operation of the document is in one of its tables.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

const reference = readFileSync(new URL('../../docs/interface.md', import.meta.url), 'utf8');

/** `GET /v1/index/{}`: path parameters are unnamed, since the document and the prose may name them apart. */
function operation(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;
}

/** The endpoint rows of the reference's tables: `| METHOD | \`/path\` | … |`. */
function documented(markdown: string): string[] {
  return [...markdown.matchAll(/^\| (GET|POST|PUT|DELETE|PATCH) \| `([^`]+)` \|/gm)].map((m) => operation(m[1]!, m[2]!));
}

let h: ApiHarness;
let served: string[];

beforeAll(async () => {
  h = await openApiHarness();
  const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
  served = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => operation(method, path)));
});

afterAll(async () => {
  await h?.close();
});

describe('docs/interface.md', () => {
  it('lists each endpoint once', () => {
    const rows = documented(reference);
    expect(rows.length).toBeGreaterThan(40);
    expect(rows.filter((row, i) => rows.indexOf(row) !== i)).toEqual([]);
  });

  it('lists only endpoints the OpenAPI document has', () => {
    expect(documented(reference).filter((row) => !served.includes(row))).toEqual([]);
  });

  it('lists every operation of the OpenAPI document', () => {
    expect(served.filter((row) => !documented(reference).includes(row))).toEqual([]);
  });
});
