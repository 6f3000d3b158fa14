import { ErrorCodes, errorDiagnostic, type Diagnostic, type Span } from '../../core/index.js';
import type { ColumnName, Query } from '../ast.js';
import { forEachQueryFilterLeaf, forEachValue } from './filter-columns.js';

/**
 * The most predicates one query may hold: each free-text term, and each value of a column filter
 * once per column its name stands for. The engine's planning grows faster than the statement:
 * measured on an empty table, 1,000 free-text terms took 1.7 s to plan and 3,000 ran out of
 * memory; 1,000 `n = …` terms 1.3 s. Past this a query gets a clear 400, not a long wait.
 */
export const maxPredicates = 1000;

/** A problem at the predicate that takes the query past `maxPredicates`, or null. */
export function checkQuerySize(query: Query, expansions: ReadonlyMap<ColumnName, readonly string[]>): Diagnostic | null {
  let count = 0;
  let over: Span | null = null;
  const add = (predicates: number, span: Span): void => {
    count += predicates;
    if (over === null && count > maxPredicates) over = span;
  };
  const columnsOf = (column: ColumnName): number => Math.max(1, expansions.get(column)?.length ?? 1);
  forEachQueryFilterLeaf(query, (leaf) => {
    if (leaf.kind === 'text') add(1, leaf.span);
    else if (leaf.kind === 'compare') add(columnsOf(leaf.column), leaf.span);
    else if (leaf.kind === 'match') forEachValue(leaf.value, (value) => add(columnsOf(leaf.column), value.span));
  });
  if (over === null) return null;
  return errorDiagnostic(
    ErrorCodes.queryAnalysis,
    `the query holds ${count} terms and values, more than the ${maxPredicates} one query may (each value of a list counts, once per column a wildcard name stands for); split it into several queries`,
    { span: over },
  );
}
