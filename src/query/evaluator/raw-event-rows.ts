/** The table straight after the filter: the matching events as rows, oldest first. */
import { assertNever } from '../../core/index.js';
import type { Filter, IndexTarget } from '../ast.js';
import { newRow, type EvalEvent, type Row } from './eval-table.js';
import { evaluateFilter } from './evaluate-filter.js';
import { systemColumnsOf } from './system-columns.js';

/**
 * The rows of the events in scope that pass the filter, ordered by (event time, ingest order).
 * Each row holds `@svc.datetime`, the event's user columns in their order, then the other system
 * columns. A user column with a system column's name is dropped: the system value wins.
 */
export function rawEventRows(filter: Filter, events: readonly EvalEvent[]): Row[] {
  const named = indexTargetsIn(filter);
  return events
    .filter((event) => !event.systemIndex || named.some((target) => targetNamesEvent(target, event)))
    .sort((a, b) => compareBigints(a.tsNs, b.tsNs) || compareBigints(a.seq, b.seq))
    .map(eventRow)
    .filter((row) => evaluateFilter(filter, row, { searchColumns: 'userColumns' }));
}

function eventRow(event: EvalEvent): Row {
  const system = systemColumnsOf(event);
  const systemNames = new Set(system.map(([name]) => name));
  const user = Object.keys(event.columns)
    .filter((name) => !systemNames.has(name))
    .map((name) => [name, event.columns[name] ?? null] as const);
  // `@svc.datetime` leads (D28); the other system columns follow the user columns.
  return newRow([...system.slice(0, 1), ...user, ...system.slice(1)]);
}

/**
 * Every index the filter names anywhere, under `not` too. D18: a system index is searched only
 * when named; naming it under `not` brings it into scope and the filter then drops its events.
 * `where` filters do not count: they run on the table the main filter produced.
 */
function indexTargetsIn(filter: Filter): IndexTarget[] {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return filter.operands.flatMap(indexTargetsIn);
    case 'not':
      return indexTargetsIn(filter.operand);
    case 'index':
      return [...filter.targets];
    case 'text':
    case 'match':
    case 'compare':
      return [];
    default:
      return assertNever(filter, 'filter');
  }
}

// The same rule as the `@index` filter: an id identifies the index, else the name does.
function targetNamesEvent(target: IndexTarget, event: EvalEvent): boolean {
  if (target.id !== null) return event.indexId === target.id;
  return target.name !== null && event.indexName === target.name;
}

function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
