/**
 * Reading only the JSON variants the field catalog lists (search does for aggregations) must not
 * change a result: random queries compiled with the catalog's types, read from the engine for each
 * dataset's range, must return exactly what the reference evaluator returns. The compiler uses the
 * types for every query it is given them for, so event searches check the filters' reads too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasAggregation, type Query } from '../../src/query/index.js';
import { arbitraryCommand, arbitraryQuery } from '../../src/query/testing/arbitrary-query.js';
import { useOracleDatasets, type OracleDataset } from './oracle-dataset.js';
import { evaluateOrError, expectAgreement, oracleSeed, oracleVocabulary as vocabulary, runCompiled } from './oracle-query.js';

const datasetCount = 4;
const { engine, datasets } = useOracleDatasets('typed-oracle', datasetCount, 3000);
const runs = Number(process.env.ORACLE_RUNS ?? 1500) / 2;

const options = { ...vocabulary, indexes: ['main', 'other', '_detections'], maxDepth: 3 };
// Half the queries end in an aggregation over events shaped by row-wise commands (the queries
// search plans with types); the other half are any pipeline.
const aggregated = fc
  .tuple(arbitraryQuery({ ...options, pipeline: ['eval', 'where', 'rename', 'table', 'head', 'tail'], maxCommands: 2 }), arbitraryCommand(options, ['aggregate', 'groupbycount', 'stats']))
  .map(([query, aggregation]): Query => ({ ...query, pipeline: [...query.pipeline, aggregation] }));
const anyQuery = fc.oneof(aggregated, arbitraryQuery({ ...options, maxCommands: 3 }));

describe('compiled SQL with the catalog types agrees with the reference evaluator', () => {
  it(`on ${runs} random queries over ${datasetCount} random datasets`, async () => {
    let aggregations = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: datasetCount - 1 }),
        anyQuery,
        async (d, query) => {
          const dataset = datasets[d] as OracleDataset;
          const actual = await runCompiled(engine, dataset, query, { useSkipIndexes: 1, typed: true });
          if (actual === null) return; // the analyzer rejected it: nothing to compare
          if (hasAggregation(query)) aggregations++;
          expectAgreement(evaluateOrError(dataset.events, query), actual, query, `typed, dataset ${d}`);
        },
      ),
      { numRuns: runs, endOnFailure: true, ...oracleSeed() },
    );
    expect(aggregations).toBeGreaterThan(runs / 5);
  }, 600_000);

  it('the datasets hold columns of every shape the types distinguish', () => {
    const shapes = new Set(datasets.flatMap((d) => [...d.fieldTypes.values()].map((types) => types.join(','))));
    for (const shape of ['String', 'Int64', 'Float64', 'Null', 'Int64,String', 'Float64,Int64']) expect(shapes).toContain(shape);
  });
});
