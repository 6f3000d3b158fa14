/**
 * `lookup` in SQL (docs/query-language.md, "Lookup tables"). A lookup table's rows live in the
 * engine's `lookup_rows` (one row per CSV line, its cells in file order, under the table's
 * current data version). Each output column is `transform(key text, keys, values, NULL)` over a
 * scalar subquery that maps each key to its first row's cell: the engine evaluates it once per
 * statement and answers each row from a hash table, and the column is an expression like an
 * eval's, so the first stage still reads `logs` directly.
 */
import { sqlInteger, sqlString } from '../../core/index.js';
import type { AnalyzedQuery } from '../analyzer/analyze-query.js';
import type { LookupCommand } from '../ast.js';
import { lookupField, lookupKey, lookupOutputs } from '../lookup-outputs.js';
import { resolveColumn, type SqlEnv } from './sql-env.js';
import { nullNumber, valueText } from './sql-value.js';

/** One column a lookup sets, and its value as a pair of SQL expressions. */
export interface LookupAssignment {
  readonly name: string;
  readonly value: { readonly s: string; readonly n: string };
}

/** The columns a lookup sets, each computed from the table before the command. */
export function compileLookup(command: LookupCommand, env: SqlEnv, analyzed: AnalyzedQuery, tenant: string, indexNames: ReadonlyMap<string, string>): LookupAssignment[] {
  const table = analyzed.lookups.get(command);
  // eslint-disable-next-line no-restricted-syntax -- internal invariant: the analyzer resolves every lookup first
  if (table === undefined) throw new Error(`lookup table '${command.table.name}' was not resolved by the analyzer`);
  const key = valueText(resolveColumn(env, lookupField(command), indexNames).value);
  const cell = (column: string): string => `cells[${sqlInteger(table.columns.indexOf(column) + 1)}]`;
  const rows = `lookup_rows WHERE tenant = ${sqlString(tenant)} AND table_id = ${sqlString(table.id)} AND version = ${sqlString(table.version)}`;
  return lookupOutputs(command, table.columns).map((output) => {
    // The first row of each key, in file order (`row` is the line's position).
    const map = `(SELECT tuple(groupArray(lookup_k), groupArray(lookup_v)) FROM (SELECT ${cell(lookupKey(command))} AS lookup_k, argMin(${cell(output.column)}, row) AS lookup_v FROM ${rows} GROUP BY lookup_k))`;
    const s = `transform(${key}, tupleElement(${map}, 1), tupleElement(${map}, 2), CAST(NULL, 'Nullable(String)'))`;
    return { name: output.name, value: { s, n: nullNumber } };
  });
}
