/** A whole query over a list of events: the reference result the compiled SQL must equal. */
import { assertNever } from '../../core/index.js';
import type { Command, Query } from '../ast.js';
import type { EvalEvent, EvalTable } from './eval-table.js';
import { evaluateAggregation } from './evaluate-aggregation.js';
import { evaluateLookup, type LookupTableData } from './evaluate-lookup.js';
import { evaluateRowCommand } from './evaluate-row-command.js';
import { columnsOf, type PipelineTable } from './pipeline-table.js';
import { rawEventRows } from './raw-event-rows.js';

/**
 * Evaluates a query: the filter picks and orders the events, then each command transforms the
 * table. `lookups` holds the data of the lookup tables the query names, by name.
 */
export function evaluateQuery(query: Query, events: readonly EvalEvent[], lookups: ReadonlyMap<string, LookupTableData> = new Map()): EvalTable {
  const start: PipelineTable = { rows: rawEventRows(query.filter, events), columns: null, aggregated: false };
  const table = query.pipeline.reduce((t, command) => evaluateCommand(t, command, lookups), start);
  return { columns: columnsOf(table), rows: table.rows };
}

function evaluateCommand(table: PipelineTable, command: Command, lookups: ReadonlyMap<string, LookupTableData>): PipelineTable {
  switch (command.kind) {
    case 'aggregate':
    case 'groupbycount':
    case 'stats':
      return evaluateAggregation(command, table.rows);
    case 'eval':
    case 'where':
    case 'table':
    case 'rename':
    case 'head':
    case 'tail':
      return evaluateRowCommand(command, table);
    case 'lookup':
      return evaluateLookup(command, table, lookups.get(command.table.name));
    default:
      return assertNever(command, 'command');
  }
}
