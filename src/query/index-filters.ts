import { assertNever } from '../core/index.js';
import type { Filter, IndexFilter, IndexTarget, Query } from './ast.js';

/** Appends every `@index` selector of a filter to `out`, in source order. */
export function collectIndexFilters(filter: Filter, out: IndexFilter[]): void {
  switch (filter.kind) {
    case 'and':
    case 'or':
      for (const operand of filter.operands) collectIndexFilters(operand, out);
      return;
    case 'not':
      collectIndexFilters(filter.operand, out);
      return;
    case 'index':
      out.push(filter);
      return;
    case 'text':
    case 'match':
    case 'compare':
      return;
    default:
      assertNever(filter);
  }
}

/**
 * Every index a query names (D18), in the event filter and in `where` commands, in source order.
 * Rule files are checked and tested without a tenant: these are the indexes they need.
 */
export function indexTargetsOf(query: Query): IndexTarget[] {
  const filters: IndexFilter[] = [];
  collectIndexFilters(query.filter, filters);
  for (const command of query.pipeline) if (command.kind === 'where') collectIndexFilters(command.filter, filters);
  return filters.flatMap((filter) => filter.targets);
}
