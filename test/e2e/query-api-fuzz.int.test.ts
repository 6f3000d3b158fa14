/**
 * Random and mutated query texts through `blocking_query`: every answer is a result (200) or a
 * 400 whose error gives a position; nothing crashes the server and nothing answers 5xx. Tenant
 * data is small, so valid queries run fast; the parser's own fuzzer runs a million inputs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom, fuzzText } from '../../src/query/testing/parser-fuzz.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

const cases = Number(process.env.API_FUZZ_CASES ?? 1500);
let h: ApiHarness;
let key: string;

beforeAll(async () => {
  h = await openApiHarness();
  key = await h.keyFor('fuzz');
  const base = Date.parse('2026-11-20T10:00:00Z');
  await h.ingest('fuzz', 'cloudtrail', Array.from({ length: 200 }, (_, n) =>
    JSON.stringify({ ts: new Date(base + n * 1000).toISOString(), eventName: n % 2 ? 'ConsoleLogin' : 'PutUserPolicy', userIdentity: { arn: `arn:aws:iam::1:user/u${n % 7}` }, elapsed_ms: n, tags: ['a', 'b'] }),
  ));
}, 120_000);
afterAll(async () => h?.close());

describe('the query API under random input', () => {
  it(`answers ${cases} fuzzed queries with a result or a 400 with a position, never a 5xx`, async () => {
    const random = createRandom(Number(process.env.API_FUZZ_SEED ?? 7));
    const statuses = new Map<number, number>();
    for (let i = 0; i < cases; i++) {
      const query = fuzzText(random);
      const r = await h.call('POST', '/v1/blocking_query', key, { query, start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z', max_rows: 50 });
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status === 200) continue;
      expect(r.status, `query ${JSON.stringify(query)} answered ${r.status}: ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.error, JSON.stringify(query)).toMatch(/ at \d+:\d+/);
    }
    // the corpus must exercise both outcomes
    expect(statuses.get(200) ?? 0).toBeGreaterThan(cases / 20);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(cases / 20);
  }, 300_000);

  // Size, not syntax: long value lists, or-chains, eval chains, deep pipelines and parentheses.
  // Each once answered 500 (the engine refused the statement it compiled to).
  it('answers queries at and past the size limits with a result or a 400, never a 5xx', async () => {
    const random = createRandom(Number(process.env.API_FUZZ_SEED ?? 7));
    const size = (max: number): number => 1 + Math.floor(random() * max);
    const shapes: (() => string)[] = [
      () => `userIdentity.arn: (${Array.from({ length: size(1200) }, (_, i) => `"10.${i % 256}.${i >> 8}.1"`).join(' ')})`,
      () => Array.from({ length: size(1200) }, (_, i) => `elapsed_ms = ${i}`).join(' or '),
      () => `* | eval ${Array.from({ length: size(300) }, (_, i) => (i === 0 ? 'x0 = elapsed_ms' : `x${i} = x${i - 1} * 2`)).join(', ')} | count`,
      () => `*${' | where elapsed_ms > 1 | head 100'.repeat(size(120))}`,
      () => `${'('.repeat(size(250))}eventName${')'.repeat(size(250))}`,
      () => `*: (${Array.from({ length: size(600) }, (_, i) => `w${i}`).join(' ')})`,
    ];
    for (let i = 0; i < 18; i++) {
      const query = shapes[i % shapes.length]!();
      const r = await h.call('POST', '/v1/blocking_query', key, { query, start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z', max_rows: 50 });
      const what = `${query.slice(0, 80)}… (${query.length} characters) answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`;
      if (r.status === 200) continue;
      expect(r.status, what).toBe(400);
      expect(r.body.error, what).toMatch(/ at \d+:\d+|^the query is too large for the engine: /);
    }
  }, 300_000);
});
