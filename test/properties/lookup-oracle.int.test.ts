/**
 * `| lookup` (docs/query-language.md, "Lookup tables"): the compiled SQL, reading the table's rows
 * from the engine's `lookup_rows`, must return exactly what the reference evaluator returns from
 * the same CSV rows. The tables' keys are the texts of the datasets' own values (numbers, numeric
 * strings, non-ASCII text, empty strings), with duplicate keys (the first row wins), and their
 * columns include names the events have, so outputs also overwrite event columns.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateQuery, parseQueryOrThrow, valueText, type Command, type LookupTableData, type LookupTableInfo, type Query } from '../../src/query/index.js';
import { arbitraryCommand, arbitraryQuery } from '../../src/query/testing/arbitrary-query.js';
import { useOracleDatasets, type OracleDataset } from './oracle-dataset.js';
import { evaluateOrError, expectAgreement, oracleSeed, oracleVocabulary as vocabulary, runCompiled } from './oracle-query.js';
import { words } from './random-events.js';

const datasetCount = 2;
const { engine, datasets } = useOracleDatasets('lookup-oracle', datasetCount, 7000);
const runs = Math.round(Number(process.env.ORACLE_RUNS ?? 1500) / 12);

// Two tables per dataset; `a`, `user` and `status` are event columns too.
const tableShapes = [
  { name: 'bad_ips', columns: ['indicator', 'provider', 'a'] },
  { name: 'users', columns: ['user', 'status', 'note', 'indicator'] },
];

interface DatasetTables {
  readonly infos: LookupTableInfo[];
  readonly data: Map<string, LookupTableData>;
}

/** Each dataset's tables, written to the engine before the property runs. */
const tables: DatasetTables[] = [];

/** The text of every non-null value the dataset's events hold (what a lookup key compares with). */
function valueTexts(dataset: OracleDataset): string[] {
  const texts = new Set<string>();
  for (const row of evaluateQuery(parseQueryOrThrow('*'), dataset.events).rows) {
    for (const value of Object.values(row)) if (value !== null) texts.add(valueText(value));
  }
  return [...texts];
}

async function writeTables(dataset: OracleDataset, seed: number): Promise<DatasetTables> {
  const texts = valueTexts(dataset);
  const infos: LookupTableInfo[] = [];
  const data = new Map<string, LookupTableData>();
  for (const [t, shape] of tableShapes.entries()) {
    const cell = fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...texts) },
      { weight: 1, arbitrary: fc.constantFrom(...words, 'none of these') },
      { weight: 1, arbitrary: fc.constant('') },
    );
    const row = fc.array(cell, { minLength: shape.columns.length, maxLength: shape.columns.length });
    const [rows] = fc.sample(fc.array(row, { minLength: 5, maxLength: 60 }), { seed: seed + t, numRuns: 1 });
    const id = `${dataset.tenant}-table-${t}`;
    const version = `v${seed}`;
    await engine.writeLookupRows(dataset.tenant, id, version, rows ?? []);
    // A stale version of the same table, which the compiled query must not read.
    await engine.writeLookupRows(dataset.tenant, id, `${version}-old`, [shape.columns.map(() => texts[0] ?? 'x')]);
    infos.push({ id, name: shape.name, columns: shape.columns, version });
    data.set(shape.name, { columns: shape.columns, rows: rows ?? [] });
  }
  return { infos, data };
}

// Every event: the oracle of filters is query-oracle; here the commands around the lookup matter.
const everyEvent = parseQueryOrThrow('*').filter;

/** The query over every event, with the lookup inserted at a position among its commands. */
function withLookup(query: Query, lookup: Command, at: number): Query {
  const pipeline = [...query.pipeline];
  pipeline.splice(at % (pipeline.length + 1), 0, lookup);
  return { ...query, filter: everyEvent, pipeline };
}

// After the datasets' own beforeAll (hooks run in order).
beforeAll(async () => {
  for (const [d, dataset] of datasets.entries()) tables.push(await writeTables(dataset, 500 + d));
});

describe('compiled lookups agree with the reference evaluator', () => {
  it(`on ${runs} random queries with a lookup over ${datasetCount} random datasets`, async () => {
    const options = { ...vocabulary, lookupTables: tableShapes, maxDepth: 1 };
    const pipeline: Command['kind'][] = ['lookup', 'where', 'eval', 'table', 'rename', 'groupbycount', 'stats', 'head'];
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: datasetCount - 1 }),
        arbitraryQuery({ ...options, pipeline, maxCommands: 2 }),
        arbitraryCommand(options, ['lookup']),
        fc.nat(),
        async (d, base, lookup, at) => {
          const dataset = datasets[d] as OracleDataset;
          const { infos, data } = tables[d] as DatasetTables;
          const query = withLookup(base, lookup, at);
          const expected = evaluateOrError(dataset.events, query, data);
          const actual = await runCompiled(engine, dataset, query, { useSkipIndexes: 1, typed: false, lookupTables: infos });
          if (actual === null) return;
          expectAgreement(expected, actual, query, `dataset ${d}`);
        },
      ),
      { numRuns: runs, endOnFailure: true, ...oracleSeed() },
    );
  }, 600_000);

  it('the tables match events: each key column is the text of some column of each dataset', () => {
    for (const [d, dataset] of datasets.entries()) {
      const { data } = tables[d] as DatasetTables;
      for (const shape of tableShapes) {
        const hits = dataset.fieldPaths.filter((path) => {
          const query = parseQueryOrThrow(`* | lookup ${shape.name} ${shape.columns[0]} as \`${path}\` output ${shape.columns[1]} as hit | where hit: *`);
          return evaluateQuery(query, dataset.events, data).rows.some((row) => row.hit !== null);
        });
        expect(hits.length, `${shape.name} on dataset ${d}`).toBeGreaterThan(2);
      }
    }
  });
});
