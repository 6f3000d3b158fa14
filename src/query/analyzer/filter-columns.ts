import { assertNever } from '../../core/index.js';
import type { ColumnName, Filter } from '../ast.js';

/** Calls `visit` with every column name a filter refers to. */
export function forEachFilterColumn(filter: Filter, visit: (column: ColumnName) => void): void {
  switch (filter.kind) {
    case 'and':
    case 'or':
      for (const operand of filter.operands) forEachFilterColumn(operand, visit);
      return;
    case 'not':
      forEachFilterColumn(filter.operand, visit);
      return;
    case 'match':
    case 'compare':
      visit(filter.column);
      return;
    case 'text':
    case 'index':
      return;
    default:
      assertNever(filter);
  }
}
