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

/**
 * The indexes a filter confines events to, by its `@index` selectors, or null when it does not
 * confine them: a selector confines to its targets, `and` to what all its confined operands
 * share, `or` to the union when every branch is confined; `not` and other filters do not.
 * `targets` holds each selector's index ids (the analyzer resolves them).
 */
export function confinedIndexIds(filter: Filter, targets: ReadonlyMap<IndexFilter, readonly string[]>): ReadonlySet<string> | null {
  switch (filter.kind) {
    case 'index':
      return new Set(targets.get(filter) ?? []);
    case 'and': {
      const confining = filter.operands.map((operand) => confinedIndexIds(operand, targets)).filter((ids) => ids !== null);
      if (confining.length === 0) return null;
      return new Set([...(confining[0] ?? [])].filter((id) => confining.every((ids) => ids.has(id))));
    }
    case 'or': {
      const union = new Set<string>();
      for (const operand of filter.operands) {
        const ids = confinedIndexIds(operand, targets);
        if (ids === null) return null;
        for (const id of ids) union.add(id);
      }
      return union;
    }
    case 'not':
    case 'text':
    case 'match':
    case 'compare':
      return null;
    default:
      return assertNever(filter);
  }
}
