import { assertNever } from '../../core/index.js';
import type { ColumnName, CompareFilter, Filter, IndexFilter, MatchFilter, Query, TextFilter, Value, ValueExpr } from '../ast.js';

/** A filter that is not `and`, `or` or `not`. */
export type FilterLeaf = TextFilter | MatchFilter | CompareFilter | IndexFilter;

/** Calls `visit` with every leaf of a filter. */
export function forEachFilterLeaf(filter: Filter, visit: (leaf: FilterLeaf) => void): void {
  switch (filter.kind) {
    case 'and':
    case 'or':
      for (const operand of filter.operands) forEachFilterLeaf(operand, visit);
      return;
    case 'not':
      forEachFilterLeaf(filter.operand, visit);
      return;
    case 'match':
    case 'compare':
    case 'text':
    case 'index':
      visit(filter);
      return;
    default:
      assertNever(filter);
  }
}

/** Calls `visit` with every leaf of the query's event filter, then of each `where`, in order. */
export function forEachQueryFilterLeaf(query: Query, visit: (leaf: FilterLeaf) => void): void {
  forEachFilterLeaf(query.filter, visit);
  for (const command of query.pipeline) if (command.kind === 'where') forEachFilterLeaf(command.filter, visit);
}

/** Calls `visit` with every column name a filter refers to. */
export function forEachFilterColumn(filter: Filter, visit: (column: ColumnName) => void): void {
  forEachFilterLeaf(filter, (leaf) => {
    if (leaf.kind === 'match' || leaf.kind === 'compare') visit(leaf.column);
  });
}

/** Calls `visit` with every value of a value group (`(a b)`, `(a and not b)`), or the one value. */
export function forEachValue(value: ValueExpr, visit: (value: Value) => void): void {
  switch (value.kind) {
    case 'valueAnd':
    case 'valueOr':
      for (const operand of value.operands) forEachValue(operand, visit);
      return;
    case 'valueNot':
      forEachValue(value.operand, visit);
      return;
    case 'string':
    case 'number':
      visit(value);
      return;
    default:
      assertNever(value);
  }
}
