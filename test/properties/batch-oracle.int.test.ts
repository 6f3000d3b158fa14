/**
 * Batched event filters (compileEventBatch: many rule windows in one statement) must give each
 * filter exactly the rows the reference evaluator gives it, earliest first up to the limit, with
 * the text indexes used and with them switched off. A prefilter that missed a matching row, or a
 * row given to the wrong filter, shows up as a disagreement.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeQuery, withStoredLayout, compileEventBatch, compileEventFilter, evaluateQuery, parseQueryOrThrow, printQuery, type EventFilter, type Query } from '../../src/query/index.js';
import { arbitraryQuery } from '../../src/query/testing/arbitrary-query.js';
import { decodeRows, readEvents } from '../../src/search/index.js';
import { oracleIndexes as indexes, useOracleDatasets, type OracleDataset } from './oracle-dataset.js';
import { numberLiterals, numbers, possibleColumns, words } from './random-events.js';
import { normalizeTable, tablesAgree } from './table-comparison.js';

const datasetCount = 3;
const { engine, datasets } = useOracleDatasets('batch-oracle', datasetCount, 2000);
const indexNames = new Map(indexes.map((index) => [index.id, index.name]));
const runs = Number(process.env.ORACLE_RUNS ?? 1500) / 5;

const filterQuery = arbitraryQuery({
  columns: [...possibleColumns().filter((c) => !c.includes('[2]')), '@svc.source_type', '@index', 'missing'],
  terms: words.filter((w) => w !== '' && w !== '*'),
  numbers: [...numbers.filter((n) => Math.abs(n) < 1e15), ...numberLiterals],
  indexes: ['main', 'other', '_detections'],
  maxDepth: 3,
  pipeline: false,
});

describe('batched event filters agree with the reference evaluator', () => {
  it(`on ${runs} random batches of 1-6 filters, with and without skip indexes`, async () => {
    let batchedFilters = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: datasetCount - 1 }), fc.array(filterQuery, { minLength: 1, maxLength: 6 }), fc.constantFrom(2, 1000), async (d, queries, limit) => {
        const dataset = datasets[d] as OracleDataset;
        const members: { query: Query; filter: EventFilter }[] = [];
        for (const query of queries) {
          const analysis = analyzeQuery(query, { indexes, fieldPaths: dataset.fieldPaths });
          const filter = analysis.analyzed && compileEventFilter(withStoredLayout(analysis.analyzed, dataset.layout));
          if (filter) members.push({ query, filter });
        }
        if (members.length === 0) return;
        batchedFilters += members.length;
        const batch = compileEventBatch(
          members.map((m) => m.filter),
          { tenant: dataset.tenant, startNs: dataset.startNs, endNs: dataset.endNs, limit },
        );
        for (const useSkipIndexes of [1, 0] as const) {
          const result = await readEvents(engine, batch.sql, batch.columns, { settings: { ...batch.settings, use_skip_indexes: useSkipIndexes } });
          members.forEach(({ query }, i) => {
            const engineRows = result.rows.filter((row) => Number(row.batch_member) === i);
            const actual = decodeRows({ kind: 'events', ops: [], columns: batch.columns, identity: { kind: 'event' } }, engineRows, indexNames).map((row) => row.columns);
            const expected = evaluateQuery(query, dataset.events);
            const want = { ...expected, rows: expected.rows.slice(0, limit) };
            const agree = tablesAgree(want, { rows: actual, columns: null });
            if (!agree.ok) {
              throw new Error(
                `disagreement (use_skip_indexes=${useSkipIndexes}, member ${i} of ${members.length}, limit ${limit}) on dataset ${d}: ${agree.reason}\n` +
                  `query: ${printQuery(query)}\nevaluator: ${JSON.stringify(normalizeTable(want.rows)).slice(0, 1000)}\n` +
                  `engine:    ${JSON.stringify(normalizeTable(actual)).slice(0, 1000)}\nsql: ${batch.sql.slice(0, 3000)}`,
              );
            }
          });
        }
      }),
      { numRuns: runs, endOnFailure: true, seed: Number(process.env.ORACLE_SEED ?? 20261122) },
    );
    expect(batchedFilters).toBeGreaterThan(runs);
  }, 600_000);

  it('keeps a filter with text-index tokens to a prefilter of those tokens, and marks one without', () => {
    const compile = (text: string): EventFilter => {
      const analysis = analyzeQuery(parseQueryOrThrow(text), { indexes, fieldPaths: ['user', 'action'] });
      return compileEventFilter(analysis.analyzed!)!;
    };
    const rare = compile('@index=main user: dave not action: login');
    expect(rare.tokenPrefilter).toBe(true);
    // `@index=main` confines the scope to main (D18)
    // No field map is known here, so `user` is read from the rest maps: field_paths narrows too.
    expect(rare.prefilter).toBe("(idx IN ('i-main') AND ((idx IN ('i-main')) AND hasToken(replaceAll(lower(search_text), '_', 'Z'), 'dave') AND has(field_paths, 'user')))");
    const negated = compile('@index=main not user: dave');
    expect(negated.tokenPrefilter).toBe(false);
    expect(negated.prefilter).toBe("(idx IN ('i-main') AND (idx IN ('i-main')))");
    // `and` binds tighter than `or`
    const either = compile('@index=main user: dave or action: login');
    expect(either.prefilter).toBe(
      "(idx IN ('i-main', 'i-other') AND (((idx IN ('i-main')) AND hasToken(replaceAll(lower(search_text), '_', 'Z'), 'dave') AND has(field_paths, 'user')) OR hasToken(replaceAll(lower(search_text), '_', 'Z'), 'login') AND has(field_paths, 'action')))",
    );
    const piped = analyzeQuery(parseQueryOrThrow('user: dave | count'), { indexes, fieldPaths: [] });
    expect(compileEventFilter(piped.analyzed!)).toBeNull();
  });
});
