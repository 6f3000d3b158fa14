/**
 * The HTTP API and the reference evaluator agree on the query oracle's corpus: random events go
 * in through the real ingest path, random queries go through `blocking_query` (time slices,
 * decoding and all), and the rows must be those the evaluator computes.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { flattenEvent } from '../../src/ingest/flatten-event.js';
import { evaluateQuery, printQuery, type EvalEvent, type TableValue } from '../../src/query/index.js';
import { arbitraryQuery } from '../../src/query/testing/arbitrary-query.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';
import { arbitraryEvent, numberLiterals, numbers, possibleColumns, words } from './random-events.js';
import { normalizeTable, tablesAgree } from './table-comparison.js';

const runs = Number(process.env.API_ORACLE_RUNS ?? 300);
const tenants = ['api-oracle-0', 'api-oracle-1', 'api-oracle-2'];
const base = Date.parse('2026-11-20T10:00:00Z');
let h: ApiHarness;
const keys: string[] = [];
const datasets: EvalEvent[][] = [];

beforeAll(async () => {
  h = await openApiHarness();
  for (const [d, tenant] of tenants.entries()) {
    keys.push(await h.keyFor(tenant));
    const [objects] = fc.sample(fc.array(arbitraryEvent, { minLength: 40, maxLength: 70 }), { seed: 2000 + d, numRuns: 1 });
    const events: EvalEvent[] = [];
    const lines = new Map<string, string[]>([
      ['main', []],
      ['other', []],
    ]);
    // Index files are ingested one after the other, so sequence numbers follow this order.
    const placed = (objects ?? []).map((object, i) => ({ object: { ...object, ts: new Date(base + (i % 17) * 1000).toISOString() }, index: i % 5 === 0 ? 'other' : 'main' }));
    let seq = 0n;
    for (const indexName of ['main', 'other']) {
      for (const { object, index } of placed.filter((p) => p.index === indexName)) {
        lines.get(index)?.push(JSON.stringify(object));
        const flat = flattenEvent(object);
        const columns: Record<string, string | number | null> = { ...flat.attrs };
        for (const path of flat.nullPaths) columns[path] = null;
        const tsNs = BigInt(Date.parse(object.ts)) * 1_000_000n;
        events.push({ columns, tsNs, seq: ++seq, sourceType: 'custom:generic', indexName: index, indexId: '', systemIndex: false });
      }
      await h.ingest(tenant, indexName, lines.get(indexName) ?? []);
    }
    // The evaluator needs the ids the service gave the indexes.
    const records = await h.runtime.services.indexes.searchable(tenant);
    const idOf = new Map(records.map((r) => [r.name, r.id]));
    datasets.push(events.map((e) => ({ ...e, indexId: idOf.get(e.indexName) ?? '' })));
  }
}, 120_000);
afterAll(async () => h?.close());

const vocabulary = {
  columns: [...possibleColumns().filter((c) => !c.includes('[2]')), '@svc.source_type', '@index', 'ts', 'missing'],
  terms: words.filter((w) => w !== '' && w !== '*'),
  numbers: [...numbers.filter((n) => Math.abs(n) < 1e15), 3, ...numberLiterals],
};

describe('the query API agrees with the reference evaluator', () => {
  it(`on ${runs} random queries`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: tenants.length - 1 }), arbitraryQuery({ ...vocabulary, indexes: ['main', 'other'], maxDepth: 3, maxCommands: 3 }), async (d, query) => {
        const text = printQuery(query);
        const r = await h.call('POST', '/v1/blocking_query', keys[d] as string, {
          query: text,
          start_time: '2026-11-20T00:00:00Z',
          end_time: '2026-11-21T00:00:00Z',
          max_rows: 100_000,
          scan_back_to_front: false,
        });
        if (r.status === 400) return; // refused by the analyzer (a column a stage lacks, ...)
        if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)} for ${text}`);
        const expected = evaluateQuery(query, datasets[d] as EvalEvent[]);
        const rows = r.body.results.rows.map((row: { columns: Record<string, TableValue> }) => row.columns);
        const events = r.body.results.column_ordering[0] === '@svc.datetime' || rows.length === 0;
        const agree = tablesAgree(expected, { rows, columns: events && expected.columns[0] === '@svc.datetime' ? null : r.body.results.column_ordering });
        if (!agree.ok) {
          throw new Error(
            `${agree.reason}\nquery: ${text}\nevaluator: ${JSON.stringify(normalizeTable(expected.rows)).slice(0, 1200)}\napi: ${JSON.stringify(normalizeTable(rows)).slice(0, 1200)}`,
          );
        }
      }),
      // fixed for repeatable CI; API_ORACLE_SEED=random explores
      { numRuns: runs, endOnFailure: true, ...(process.env.API_ORACLE_SEED === 'random' ? {} : { seed: Number(process.env.API_ORACLE_SEED ?? 20261122) }) },
    );
  }, 600_000);
});
