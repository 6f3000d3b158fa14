/**
 * The compiled SQL, run on the real engine, must return exactly what the reference evaluator
 * returns for the same events and query — with the text indexes used (parts of words looked up
 * too, `partialWords`) and with them switched off (`use_skip_indexes = 0`). Random events (random-events.ts) go through ingest's flattening into
 * chDB once per dataset; random queries come from the parser's AST generators.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryQuery } from '../../src/query/testing/arbitrary-query.js';
import { useOracleDatasets, type OracleDataset } from './oracle-dataset.js';
import { evaluateOrError, expectAgreement, oracleSeed, oracleVocabulary as vocabulary, runCompiled } from './oracle-query.js';

const datasetCount = 6;
const { engine, datasets } = useOracleDatasets('oracle', datasetCount, 1000);
const runs = Number(process.env.ORACLE_RUNS ?? 1500);

describe('compiled SQL agrees with the reference evaluator', () => {
  it(`on ${runs} random queries over ${datasetCount} random datasets, with and without skip indexes`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: datasetCount - 1 }),
        arbitraryQuery({ ...vocabulary, indexes: ['main', 'other', '_detections'], maxDepth: 3, maxCommands: 3 }),
        async (d, query) => {
          const dataset = datasets[d] as OracleDataset;
          const expected = evaluateOrError(dataset.events, query);
          for (const useSkipIndexes of [1, 0] as const) {
            const actual = await runCompiled(engine, dataset, query, { useSkipIndexes, typed: false, partialWords: useSkipIndexes === 1 });
            if (actual === null) return; // the analyzer rejected it: nothing to compare
            expectAgreement(expected, actual, query, `use_skip_indexes=${useSkipIndexes} on dataset ${d}`);
          }
        },
      ),
      { numRuns: runs, endOnFailure: true, ...oracleSeed() },
    );
  }, 600_000);

  it('the datasets exercise the vocabulary', () => {
    const columns = new Set(datasets.flatMap((d) => d.fieldPaths));
    expect(columns.size).toBeGreaterThan(40);
    expect(datasets.every((d) => d.events.some((e) => e.systemIndex))).toBe(true);
  });
});
