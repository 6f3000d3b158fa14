import type { ColumnName, CompareOperator, Filter, MatchOperator, Value } from '../ast.js';
import { parseIndexSelector } from './parse-index-filter.js';
import { isValueToken, parseValueExpr, valueFromToken } from './parse-value.js';
import type { ParserState } from './parser-state.js';
import type { Token } from '../token.js';

export interface FilterContext {
  /** Inside `where` (D24): `==` and `!=` are allowed and `@index` is an ordinary column. */
  readonly inWhere: boolean;
}

const filterOperators = new Set([':', '=', '<', '<=', '>', '>=', '==', '!=']);

/** Whether the token is an operator that makes the token before it a column name. */
export function isFilterOperator(token: Token): boolean {
  return token.kind === 'symbol' && filterOperators.has(token.text);
}

/**
 * Reads the operator and value after a column name: `col: v`, `col = v` (D14, D15), `col > 5`
 * (D17), `col == v` / `col != v` (only in `where`, D24) and, in the main filter, the index
 * selector `@index=...` (D18). `column` is null when the name was unusable (already reported):
 * the rest is still read, so one bad name does not cascade.
 */
export function parseColumnFilter(state: ParserState, context: FilterContext, column: ColumnName | null): Filter | null {
  const operator = state.next();
  const start = column?.span.start.offset ?? operator.span.start.offset;
  switch (operator.text) {
    case ':':
    case '=': {
      if (column && !context.inWhere && isIndexColumn(column)) {
        const targets = parseIndexSelector(state, operator);
        return targets && { kind: 'index', targets, span: state.spanFrom(start) };
      }
      const value = parseValueExpr(state, operator);
      if (!column || !value) return null;
      return { kind: 'match', column, op: operator.text as MatchOperator, value, span: state.spanFrom(start) };
    }
    case '==':
    case '!=': {
      if (!context.inWhere) {
        const hint = operator.text === '!=' ? "write 'not col = v'" : "write 'col = v'";
        state.error(`'${operator.text}' is not a filter operator`, operator.span, `${hint} ('${operator.text}' works only in where)`);
      }
      const value = parseComparedValue(state, operator, false);
      return column && value && { kind: 'compare', column, op: operator.text, value, span: state.spanFrom(start) };
    }
    default: {
      const value = parseComparedValue(state, operator, true);
      const op = operator.text as CompareOperator;
      return column && value && { kind: 'compare', column, op, value, span: state.spanFrom(start) };
    }
  }
}

/** `@index` written bare selects indexes; in backticks it is an ordinary column. */
function isIndexColumn(column: ColumnName): boolean {
  const [part, ...rest] = column.parts;
  return column.quote === 'bare' && rest.length === 0 && part?.kind === 'text' && part.text === '@index';
}

/**
 * The single value of a comparison. `<`-style comparisons need a number (D17); `==` and `!=`
 * compare whole values, so a wildcard there would silently match nothing and is refused.
 */
function parseComparedValue(state: ParserState, operator: Token, numeric: boolean): Value | null {
  const token = state.peek();
  if (!isValueToken(token)) {
    if (token.kind === 'invalid') state.next();
    else state.errorAtNext(`expected a ${numeric ? 'number' : 'value'} after '${operator.text}'`);
    return null;
  }
  state.next();
  const value = valueFromToken(token);
  if (numeric && value.kind !== 'number') {
    state.error(`'${operator.text}' compares numbers`, token.span, `write a number such as 'col ${operator.text} 5'; to match text use ':'`);
  } else if (value.kind === 'string' && value.segments.length > 1) {
    state.error(`'${operator.text}' compares whole values: no wildcards`, token.span, "use ':' or '=' to match with wildcards");
  }
  return value;
}
