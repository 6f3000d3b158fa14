/**
 * The columns each pipeline command produces (D21, D27), shared by the analyzer, the compiler
 * and the evaluator so that all three name result columns the same way.
 */
import { assertNever } from '../core/index.js';
import type { AggregationCall, Command, LookupCommand, StatsAggregation } from './ast.js';
import { lookupOutputs } from './lookup-outputs.js';
import { plainColumnName } from './column-names.js';
import { printAggregationCall } from './printer.js';

/** Names of the one-row aggregations' result columns (D2, D21). */
export function aggregateColumns(call: AggregationCall): string[] {
  switch (call.fn) {
    case 'count':
      return ['@q.count'];
    case 'countdistinct':
      return ['@q.uniq'];
    case 'max':
    case 'min':
      return call.args.length === 1 ? [`@q.${call.fn}`] : call.args.map((_, i) => `@q.${call.fn}[${i}]`);
    case 'avg':
    case 'sum':
    case 'var':
      return [`@q.${call.fn}`];
    case 'percentile':
      return ['@q.value'];
    default:
      return assertNever(call.fn);
  }
}

/** The column a stats aggregation writes: its alias, or its canonical text such as `max(x)`. */
export function statsColumnName(item: StatsAggregation): string {
  return item.alias === null ? printAggregationCall(item.call) : (plainColumnName(item.alias) ?? printAggregationCall(item.call));
}

/**
 * The column list after `command`, given the list before it (`null` while the table holds raw
 * events, whose columns are open-ended). Returns null when the table still holds raw events.
 * `lookupColumns` gives the columns of a lookup command's table (its outputs may be all of them).
 */
export function outputColumns(command: Command, before: readonly string[] | null, lookupColumns: (command: LookupCommand) => readonly string[] = () => []): string[] | null {
  switch (command.kind) {
    case 'aggregate':
      return aggregateColumns(command.call);
    case 'groupbycount':
      return [...unique(command.columns.map(nameOf)), '@q.count'];
    case 'stats': {
      const columns = [...unique(command.by.map(nameOf)), '@q.count'];
      for (const item of command.items) {
        if (item.kind === 'statsAggregation') appendUnique(columns, statsColumnName(item));
      }
      return columns;
    }
    case 'table':
      return unique(command.columns.map(nameOf));
    case 'eval': {
      if (before === null) return null;
      const columns = [...before];
      for (const assignment of command.assignments) appendUnique(columns, nameOf(assignment.column));
      return columns;
    }
    case 'rename': {
      if (before === null) return null;
      let columns = [...before];
      for (const rename of command.renames) {
        const from = nameOf(rename.from);
        const to = nameOf(rename.to);
        if (from === to) continue;
        const at = columns.indexOf(from);
        columns = columns.filter((c) => c !== to);
        const position = columns.indexOf(from);
        if (at === -1 || position === -1) columns.push(to);
        else columns[position] = to;
      }
      return columns;
    }
    case 'lookup': {
      if (before === null) return null;
      const columns = [...before];
      for (const output of lookupOutputs(command, lookupColumns(command))) appendUnique(columns, output.name);
      return columns;
    }
    case 'where':
    case 'head':
    case 'tail':
      return before === null ? null : [...before];
    default:
      return assertNever(command);
  }
}

// A wildcard name here is an analysis error; its written text keeps later messages readable.
function nameOf(column: import('./ast.js').ColumnName): string {
  return plainColumnName(column) ?? column.parts.map((p) => (p.kind === 'text' ? p.text : p.kind === 'star' ? '*' : '**')).join('');
}

function appendUnique(columns: string[], name: string): void {
  if (!columns.includes(name)) columns.push(name);
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
