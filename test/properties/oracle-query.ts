/**
 * What the query oracle tests share: the query vocabulary drawn from the random events, and one
 * random query compiled and run on the engine over a dataset, with or without the field
 * catalog's types.
 */
import type { Engine } from '../../src/engine/index.js';
import {
  analyzeQuery,
  compileQuery,
  withStoredLayout,
  evaluateQuery,
  printQuery,
  type EvalEvent,
  type EvalTable,
  type LookupTableData,
  type LookupTableInfo,
  type Query,
  type TableValue,
} from '../../src/query/index.js';
import { decodeRows, readCompiled } from '../../src/search/index.js';
import { oracleIndexes as indexes, type OracleDataset } from './oracle-dataset.js';
import { numberLiterals, numbers, possibleColumns, words } from './random-events.js';
import { normalizeTable, tablesAgree } from './table-comparison.js';

/** Columns, terms and numbers of random queries: what the datasets hold, plus a column none has. */
export const oracleVocabulary = {
  columns: [...possibleColumns().filter((c) => !c.includes('[2]')), '@svc.source_type', '@index', 'missing'],
  terms: words.filter((w) => w !== '' && w !== '*'),
  numbers: [...numbers.filter((n) => Math.abs(n) < 1e15), 200.0, 3, ...numberLiterals],
};

export interface CompiledRun {
  readonly rows: Record<string, TableValue>[];
  readonly columns: string[] | null;
  readonly sql: string;
}

/** Compiles the query for the dataset and runs it; null when the analyzer rejects it. */
export async function runCompiled(
  engine: Engine,
  dataset: OracleDataset,
  query: Query,
  options: { readonly useSkipIndexes: 0 | 1; readonly typed: boolean; readonly partialWords?: boolean; readonly lookupTables?: readonly LookupTableInfo[] },
): Promise<CompiledRun | null> {
  const context = {
    indexes,
    fieldPaths: dataset.fieldPaths,
    ...(options.typed ? { fieldTypes: dataset.fieldTypes } : {}),
    ...(options.lookupTables ? { lookupTables: options.lookupTables } : {}),
  };
  const analysis = analyzeQuery(query, context);
  if (analysis.analyzed === null) return null;
  const compiled = compileQuery(withStoredLayout(analysis.analyzed, dataset.layout), { tenant: dataset.tenant, startNs: dataset.startNs, endNs: dataset.endNs, partialWords: options.partialWords === true });
  const result = await readCompiled(engine, compiled, { settings: { ...compiled.settings, use_skip_indexes: options.useSkipIndexes } });
  const indexNames = new Map(indexes.map((index) => [index.id, index.name]));
  const rows = decodeRows(compiled.output, result.rows, indexNames).map((row) => row.columns);
  const columns = compiled.output.kind === 'table' ? compiled.output.columns.map((c) => c.name) : null;
  return { rows, columns, sql: compiled.sql };
}

/** The evaluator's table, or its error as a value (compared only when the analyzer accepts the query). */
export function evaluateOrError(events: readonly EvalEvent[], query: Query, lookups?: ReadonlyMap<string, LookupTableData>): EvalTable | { error: string } {
  try {
    return evaluateQuery(query, events, lookups);
  } catch (error) {
    return { error: String(error) };
  }
}

/**
 * A fixed seed keeps CI repeatable; ORACLE_SEED=random explores new cases (do it when changing
 * the compiler or the evaluator), ORACLE_SEED=<n> replays a reported failure.
 */
export function oracleSeed(): { seed?: number } {
  const given = process.env.ORACLE_SEED ?? '331015988';
  return given === 'random' ? {} : { seed: Number(given) };
}

/** Throws with both tables and the SQL unless the engine's rows are the evaluator's. */
export function expectAgreement(expected: EvalTable | { error: string }, actual: CompiledRun, query: Query, where: string): void {
  if ('error' in expected) throw new Error(`evaluator failed where the analyzer accepted: ${expected.error}\n${printQuery(query)}`);
  const agree = tablesAgree(expected, actual);
  if (agree.ok) return;
  throw new Error(
    `disagreement (${where}): ${agree.reason}\nquery: ${printQuery(query)}\n` +
      `evaluator: ${JSON.stringify(normalizeTable(expected.rows)).slice(0, 1500)}\n` +
      `engine:    ${JSON.stringify(normalizeTable(actual.rows)).slice(0, 1500)}\nsql: ${actual.sql}`,
  );
}
