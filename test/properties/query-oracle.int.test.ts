/**
 * The compiled SQL, run on the real engine, must return exactly what the reference evaluator
 * returns for the same events and query — with the text indexes used and with them switched off
 * (`use_skip_indexes = 0`). Random events (random-events.ts) go through ingest's flattening into
 * chDB once per dataset; random queries come from the parser's AST generators.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeQuery, compileQuery, evaluateQuery, printQuery, type EvalEvent, type Query } from '../../src/query/index.js';
import { arbitraryQuery } from '../../src/query/testing/arbitrary-query.js';
import { decodeRows, readCompiled } from '../../src/search/index.js';
import { oracleIndexes as indexes, useOracleDatasets, type OracleDataset } from './oracle-dataset.js';
import { numbers, possibleColumns, words } from './random-events.js';
import { normalizeTable, tablesAgree } from './table-comparison.js';

const datasetCount = 6;
const { engine, datasets } = useOracleDatasets('oracle', datasetCount, 1000);
const runs = Number(process.env.ORACLE_RUNS ?? 1500);

const vocabulary = {
  columns: [...possibleColumns().filter((c) => !c.includes('[2]')), '@svc.source_type', '@index', 'missing'],
  terms: words.filter((w) => w !== '' && w !== '*'),
  numbers: [...numbers.filter((n) => Math.abs(n) < 1e15), 200.0, 3],
};

async function runCompiled(dataset: OracleDataset, query: Query, useSkipIndexes: 0 | 1) {
  const analysis = analyzeQuery(query, { indexes, fieldPaths: dataset.fieldPaths });
  if (analysis.analyzed === null) return null;
  const compiled = compileQuery(analysis.analyzed, { tenant: dataset.tenant, startNs: dataset.startNs, endNs: dataset.endNs });
  const result = await readCompiled(engine, compiled, { settings: { ...compiled.settings, use_skip_indexes: useSkipIndexes } });
  const indexNames = new Map(indexes.map((index) => [index.id, index.name]));
  const rows = decodeRows(compiled.output, result.rows, indexNames).map((row) => row.columns);
  const columns = compiled.output.kind === 'table' ? compiled.output.columns.map((c) => c.name) : null;
  return { rows, columns, sql: compiled.sql };
}

function evaluate(events: readonly EvalEvent[], query: Query) {
  try {
    return evaluateQuery(query, events);
  } catch (error) {
    return { error: String(error) };
  }
}

function oracleSeed(): { seed?: number } {
  const given = process.env.ORACLE_SEED ?? '331015988';
  return given === 'random' ? {} : { seed: Number(given) };
}

describe('compiled SQL agrees with the reference evaluator', () => {
  it(`on ${runs} random queries over ${datasetCount} random datasets, with and without skip indexes`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: datasetCount - 1 }),
        arbitraryQuery({ ...vocabulary, indexes: ['main', 'other', '_detections'], maxDepth: 3, maxCommands: 3 }),
        async (d, query) => {
          const dataset = datasets[d] as OracleDataset;
          const expected = evaluate(dataset.events, query);
          for (const useSkipIndexes of [1, 0] as const) {
            const actual = await runCompiled(dataset, query, useSkipIndexes);
            if (actual === null) return; // the analyzer rejected it: nothing to compare
            if ('error' in expected) throw new Error(`evaluator failed where the analyzer accepted: ${expected.error}\n${printQuery(query)}`);
            const agree = tablesAgree(expected, actual);
            if (!agree.ok) {
              throw new Error(
                `disagreement (use_skip_indexes=${useSkipIndexes}) on dataset ${d}: ${agree.reason}\nquery: ${printQuery(query)}\n` +
                  `evaluator: ${JSON.stringify(normalizeTable(expected.rows)).slice(0, 1500)}\n` +
                  `engine:    ${JSON.stringify(normalizeTable(actual.rows)).slice(0, 1500)}\nsql: ${actual.sql}`,
              );
            }
          }
        },
      ),
      // A fixed seed keeps CI repeatable; ORACLE_SEED=random explores new cases (do it when
      // changing the compiler or the evaluator), ORACLE_SEED=<n> replays a reported failure.
      { numRuns: runs, endOnFailure: true, ...oracleSeed() },
    );
  }, 600_000);

  it('the datasets exercise the vocabulary', () => {
    const columns = new Set(datasets.flatMap((d) => d.fieldPaths));
    expect(columns.size).toBeGreaterThan(40);
    expect(datasets.every((d) => d.events.some((e) => e.systemIndex))).toBe(true);
  });
});
