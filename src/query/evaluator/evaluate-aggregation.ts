/** The aggregating commands: standalone aggregations, `groupbycount` and `stats` (D21, D22). */
import { assertNever, QueryAnalysisError } from '../../core/index.js';
import type { AggregateCommand, GroupByCountCommand, StatsAggregation, StatsCommand } from '../ast.js';
import { compareTuples, tupleKey } from './compare-table-values.js';
import { cellOrNull, newRow, type Row, type TableValue } from './eval-table.js';
import { aggregateColumns } from '../output-columns.js';
import { aggregationValues } from './aggregation-values.js';
import { distinctColumns, type PipelineTable } from './pipeline-table.js';
import { printAggregationCall } from '../printer.js';
import { plainColumnName } from './resolve-column-name.js';

export type AggregationCommand = AggregateCommand | GroupByCountCommand | StatsCommand;

/** Runs an aggregating command; its output has fixed columns, and free text then searches them all. */
export function evaluateAggregation(command: AggregationCommand, rows: readonly Row[]): PipelineTable {
  switch (command.kind) {
    case 'aggregate':
      return standalone(command, rows);
    case 'groupbycount':
      return groupByCount(command, rows);
    case 'stats':
      return stats(command, rows);
    default:
      return assertNever(command, 'aggregation command');
  }
}

// One row even on empty input: counts give 0, the others null (D22).
function standalone(command: AggregateCommand, rows: readonly Row[]): PipelineTable {
  // Result column names are a convention shared with the compiler (D21), not semantics to check.
  const columns = aggregateColumns(command.call);
  const values = aggregationValues(command.call, rows);
  return { columns, rows: [rowOf(columns, values)], aggregated: true };
}

// Most frequent first, ties by the group values ascending; empty input gives no rows.
function groupByCount(command: GroupByCountCommand, rows: readonly Row[]): PipelineTable {
  const names = command.columns.map((c) => plainColumnName(c, 'groupbycount'));
  const output = [...names, '@q.count'];
  const groups = groupRows(rows, names).sort((a, b) => b.rows.length - a.rows.length || compareTuples(a.values, b.values));
  const counted = groups.map((g) => rowOf(output, [...g.values, g.rows.length]));
  return { columns: distinctColumns(output), rows: counted, aggregated: true };
}

/**
 * `stats f… by g…`: g…, `@q.count`, one column per aggregation (its alias, else its printed
 * call); rows by group values ascending. Without `by` the whole input is one group, so empty
 * input still gives one row: count 0, the counting calls 0, the others null (D22).
 */
function stats(command: StatsCommand, rows: readonly Row[]): PipelineTable {
  const by = command.by.map((c) => plainColumnName(c, 'stats … by'));
  // A bare `by` column among the items (`stats count() as n, user by user`) adds no column.
  const aggregations = command.items.filter((item): item is StatsAggregation => item.kind === 'statsAggregation');
  const names = aggregations.map(statsColumnName);
  const columns = [...by, '@q.count', ...names];
  const groups = by.length === 0 ? [{ values: [], rows: [...rows] }] : groupRows(rows, by);
  groups.sort((a, b) => compareTuples(a.values, b.values));
  const output = groups.map((g) => {
    const values = aggregations.map((a) => singleValue(a, g.rows));
    return rowOf(columns, [...g.values, g.rows.length, ...values]);
  });
  return { columns: distinctColumns(columns), rows: output, aggregated: true };
}

function statsColumnName(item: StatsAggregation): string {
  return item.alias === null ? printAggregationCall(item.call) : plainColumnName(item.alias, 'stats … as');
}

// `stats` gives one column per aggregation, so a tuple `max(a, b)` has no place in it.
function singleValue(item: StatsAggregation, rows: readonly Row[]): TableValue {
  const values = aggregationValues(item.call, rows);
  if (values.length !== 1) {
    throw new QueryAnalysisError(`${printAggregationCall(item.call)} gives several values and cannot be a stats column`, {
      span: item.span,
    });
  }
  return values[0] ?? null;
}

interface Group {
  readonly values: readonly TableValue[];
  readonly rows: Row[];
}

/** Rows grouped by their tuple of values (a missing column groups as null), in first-seen order. */
function groupRows(rows: readonly Row[], names: readonly string[]): Group[] {
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const values = names.map((name) => cellOrNull(row, name));
    const key = tupleKey(values);
    const group = groups.get(key) ?? { values, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** A row of the named values; when a name repeats, its first value wins (see `distinctColumns`). */
function rowOf(columns: readonly string[], values: readonly TableValue[]): Row {
  const row = newRow();
  columns.forEach((name, i) => {
    if (!Object.hasOwn(row, name)) row[name] = values[i] ?? null;
  });
  return row;
}
