/** The filter semantics of docs "Filters", over one row: the main filter and `where` (D11–D19, D24). */
import { assertNever } from '../../core/index.js';
import type { ColumnName, CompareFilter, Filter, IndexTarget, MatchOperator, Value, ValueExpr } from '../ast.js';
import { cellOf, type TableValue } from './eval-table.js';
import { isWildcardOnly, matchesTerm } from './matches-term.js';
import { columnsMatching, hasWildcard } from './resolve-column-name.js';
import { isSystemColumnName } from './system-columns.js';
import { compareDecimals, decimalValue, exactNumber, numberDecimal, type DecimalValue } from '../decimal-value.js';

export interface FilterOptions {
  /**
   * The columns that free text searches and that wildcard column names range over.
   * `userColumns` (the default: raw events, and `where` before any aggregation) leaves out the
   * system columns `@svc.*`, `@index`, `@index_id` (D13); `allColumns` (`where` after an
   * aggregation, whose table holds only what the pipeline made) takes every column. A name
   * without wildcards reaches its column either way.
   */
  readonly searchColumns?: 'userColumns' | 'allColumns';
}

type SearchColumns = NonNullable<FilterOptions['searchColumns']>;

type FilterRow = Readonly<Record<string, TableValue>>;

/** Whether a row passes a filter. A column absent from the row is missing, unlike a present null. */
export function evaluateFilter(filter: Filter, row: FilterRow, options: FilterOptions = {}): boolean {
  const scope = options.searchColumns ?? 'userColumns';
  switch (filter.kind) {
    case 'and':
      return filter.operands.every((f) => evaluateFilter(f, row, options));
    case 'or':
      return filter.operands.some((f) => evaluateFilter(f, row, options));
    case 'not':
      return !evaluateFilter(filter.operand, row, options);
    case 'text':
      return matchesFreeText(filter.value, row, scope);
    case 'match':
      return matchesValueExpr(filter.column, filter.op, filter.value, row, scope);
    case 'compare':
      return matchesCompare(filter, row, scope);
    case 'index':
      return filter.targets.some((t) => isInIndex(t, row));
    default:
      return assertNever(filter, 'filter');
  }
}

// D12, D13: a wildcard-only term matches every row, even one without user columns.
function matchesFreeText(term: Value, row: FilterRow, scope: SearchColumns): boolean {
  if (isWildcardOnly(term)) return true;
  return searchedColumns(row, scope).some((name) => {
    const value = cellOf(row, name);
    return value !== undefined && value !== null && matchesTerm(value, term, 'contains');
  });
}

// D15: the column filter distributes over a value group, so `col: (a and not b)` is
// `col: a and not col: b`, each atom deciding over the columns the name denotes on its own.
function matchesValueExpr(column: ColumnName, op: MatchOperator, value: ValueExpr, row: FilterRow, scope: SearchColumns): boolean {
  switch (value.kind) {
    case 'valueAnd':
      return value.operands.every((v) => matchesValueExpr(column, op, v, row, scope));
    case 'valueOr':
      return value.operands.some((v) => matchesValueExpr(column, op, v, row, scope));
    case 'valueNot':
      return !matchesValueExpr(column, op, value.operand, row, scope);
    case 'string':
    case 'number':
      return matchesAtom(column, op, value, row, scope);
    default:
      return assertNever(value, 'value expression');
  }
}

// D14, D16: true when any existing column the name denotes matches; a wildcard-only term asks
// only that such a column exists, even holding null, while null matches no other term.
function matchesAtom(column: ColumnName, op: MatchOperator, term: Value, row: FilterRow, scope: SearchColumns): boolean {
  const names = columnsDenoted(column, row, scope);
  if (isWildcardOnly(term)) return names.length > 0;
  const mode = op === ':' ? 'contains' : 'whole';
  return names.some((name) => {
    const value = cellOf(row, name);
    return value !== undefined && value !== null && matchesTerm(value, term, mode);
  });
}

function matchesCompare(filter: CompareFilter, row: FilterRow, scope: SearchColumns): boolean {
  const names = columnsDenoted(filter.column, row, scope);
  const cells = names.map((name) => cellOf(row, name) ?? null);
  switch (filter.op) {
    case '==':
      return cells.some((v) => equalsTerm(v, filter.value));
    case '!=':
      // The negation of `==` as a whole: a missing column or null is `!=` anything.
      return !cells.some((v) => equalsTerm(v, filter.value));
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const bound = termDecimal(filter.value);
      if (bound === null) return false;
      const op = filter.op;
      return cells.some((v) => {
        const d = cellDecimal(v);
        return d !== null && holds(compareDecimals(d, bound), op);
      });
    }
    default:
      return assertNever(filter.op, 'compare operator');
  }
}

/** The row's columns that free text searches and wildcard names range over. */
function searchedColumns(row: FilterRow, scope: SearchColumns): string[] {
  const names = Object.keys(row);
  return scope === 'allColumns' ? names : names.filter((name) => !isSystemColumnName(name));
}

/** The existing columns a name denotes: itself if it has no wildcard, else the searched columns it matches. */
function columnsDenoted(column: ColumnName, row: FilterRow, scope: SearchColumns): string[] {
  return columnsMatching(column, hasWildcard(column) ? searchedColumns(row, scope) : Object.keys(row));
}

function holds(order: -1 | 0 | 1, op: '<' | '<=' | '>' | '>='): boolean {
  switch (op) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    default:
      return assertNever(op, 'compare operator');
  }
}

/**
 * The exact value a comparison compares with: a number literal's text, or a quoted string that
 * is entirely a decimal number (D17). Anything else makes the comparison false.
 */
function termDecimal(term: Value): DecimalValue | null {
  if (term.kind === 'number') return decimalValue(term.text);
  const [only, ...rest] = term.segments;
  return only !== undefined && rest.length === 0 ? decimalValue(only) : null;
}

/** A cell's exact value for `< <= > >=`: a number by its canonical text, or a decimal string (D17). */
function cellDecimal(v: TableValue): DecimalValue | null {
  if (typeof v === 'number') return Number.isFinite(v) ? numberDecimal(v) : null;
  return typeof v === 'string' ? decimalValue(v) : null;
}

/**
 * `==` in `where` (D24): a number equals a number literal of the same value; a string equals the
 * term's exact text, case-sensitively, a `*` in it taken literally (no wildcards here).
 */
function equalsTerm(value: TableValue, term: Value): boolean {
  if (term.kind === 'number') return typeof value === 'number' && value === exactNumber(term.text);
  return typeof value === 'string' && value === term.segments.join('*');
}

// D18: a target with an id names exactly that index (its name is then informational);
// otherwise the name decides. The row's `@index` / `@index_id` columns are the event's index.
function isInIndex(target: IndexTarget, row: FilterRow): boolean {
  if (target.id !== null) return cellOf(row, '@index_id') === target.id;
  return target.name !== null && cellOf(row, '@index') === target.name;
}
