import type { ColumnName, Filter } from '../ast.js';
import { combine } from '../combine.js';
import { isFilterOperator, parseColumnFilter, type FilterContext } from './parse-column-filter.js';
import { columnFromToken } from './parse-column-name.js';
import { valueFromToken } from './parse-value.js';
import type { ParserState } from './parser-state.js';
import { isKeyword, isSymbol, type Token } from '../token.js';

/**
 * Reads a filter up to the end of the stage (`|` or the end of the text). Precedence is `not`
 * over `and` (explicit or implied by juxtaposition) over `or` (D19). Tokens that cannot continue
 * a filter are reported and skipped, so every problem of the stage is found. Returns null when
 * the stage holds no filter at all.
 */
export function parseFilter(state: ParserState, context: FilterContext): Filter | null {
  return parseSequence(state, context, false);
}

/** A filter, then anything stray up to `)` (inside parentheses) or the end of the stage. */
function parseSequence(state: ParserState, context: FilterContext, inParens: boolean): Filter | null {
  const parts: Filter[] = [];
  for (;;) {
    const part = parseOr(state, context);
    if (part) parts.push(part);
    if (state.atStageEnd() || (inParens && state.atSymbol(')'))) break;
    reportStray(state, state.next());
  }
  return parts.length === 0 ? null : combine('and', parts);
}

function reportStray(state: ParserState, token: Token): void {
  if (isSymbol(token, ')')) {
    state.error("unbalanced ')'", token.span, "remove it or add the matching '('");
  } else if (isSymbol(token, ':') || isSymbol(token, '=')) {
    state.error(`unexpected '${token.text}'`, token.span, `quote values that contain '${token.text}': 'a${token.text}b'`);
  } else if (token.kind !== 'invalid') {
    state.error(`unexpected '${token.text}'`, token.span);
  }
}

/** Whether the token can begin an operand of `and` (a term, a column filter, `not`, `(`). */
function canStartOperand(token: Token): boolean {
  switch (token.kind) {
    case 'word':
      return !isKeyword(token, 'and') && !isKeyword(token, 'or');
    case 'single':
    case 'double':
    case 'number':
    case 'backtick':
    case 'invalid':
      return true;
    case 'symbol':
      return token.text === '(';
    case 'eof':
      return false;
  }
}

// `attempted` (rather than a non-empty operand list) tells whether something stood on the left
// of an operator: an operand that failed was already reported and must not cause a second report.

function parseOr(state: ParserState, context: FilterContext): Filter | null {
  const operands: Filter[] = [];
  let attempted = false;
  for (;;) {
    const token = state.peek();
    if (isKeyword(token, 'or')) {
      state.next();
      if (!attempted) state.error("'or' needs a filter on its left", token.span);
      if (!canStartOperand(state.peek())) state.errorAtNext("expected a filter after 'or'");
    } else if (canStartOperand(token) || isKeyword(token, 'and')) {
      attempted = true;
      const operand = parseAnd(state, context);
      if (operand) operands.push(operand);
      if (!isKeyword(state.peek(), 'or')) break;
    } else {
      break;
    }
  }
  return operands.length === 0 ? null : combine('or', operands);
}

function parseAnd(state: ParserState, context: FilterContext): Filter | null {
  const operands: Filter[] = [];
  let attempted = false;
  for (;;) {
    const token = state.peek();
    if (isKeyword(token, 'and')) {
      state.next();
      if (!attempted) state.error("'and' needs a filter on its left", token.span);
      if (!canStartOperand(state.peek())) state.errorAtNext("expected a filter after 'and'");
    } else if (canStartOperand(token)) {
      attempted = true;
      const operand = parseNot(state, context);
      if (operand) operands.push(operand);
    } else {
      break;
    }
  }
  return operands.length === 0 ? null : combine('and', operands);
}

function parseNot(state: ParserState, context: FilterContext): Filter | null {
  const token = state.peek();
  if (!isKeyword(token, 'not')) return parsePrimary(state, context);
  state.next();
  if (!canStartOperand(state.peek())) {
    state.errorAtNext("expected a filter after 'not'");
    return null;
  }
  if (!state.enter(token.span)) {
    state.skipToStageEnd();
    return null;
  }
  const operand = parseNot(state, context);
  state.leave();
  return operand && { kind: 'not', operand, span: state.spanFrom(token.span.start.offset) };
}

function parsePrimary(state: ParserState, context: FilterContext): Filter | null {
  const token = state.next();
  if (isSymbol(token, '(')) return parseParenthesized(state, context, token);
  if (isFilterOperator(state.peek())) return parseColumnFilter(state, context, columnOf(state, token));
  switch (token.kind) {
    case 'word':
    case 'single':
    case 'double':
    case 'number':
      return { kind: 'text', value: valueFromToken(token), span: token.span };
    case 'backtick':
      // An unterminated name was reported already; what follows it is part of the mistake.
      if (token.problems.length === 0) state.errorAtNext("expected ':', '=' or a comparison after the column name", `write ${token.text}: value`);
      return null;
    default:
      return null; // an invalid token: the lexer's problem was reported by `next`
  }
}

/** The column a token before a filter operator names; null (reported) when it cannot be one. */
function columnOf(state: ParserState, token: Token): ColumnName | null {
  switch (token.kind) {
    case 'word':
    case 'backtick':
      return columnFromToken(state, token);
    case 'single':
    case 'double':
      state.error('a column name in quotes uses backticks', token.span, `write \`${token.segments.join('*')}\``);
      return null;
    case 'number':
      state.error('a column name cannot start with a digit', token.span, `write \`${token.text}\` in backticks`);
      return null;
    default:
      return null;
  }
}

function parseParenthesized(state: ParserState, context: FilterContext, open: Token): Filter | null {
  if (!state.enter(open.span)) {
    state.skipToStageEnd();
    return null;
  }
  const empty = state.atSymbol(')');
  const inner = parseSequence(state, context, true);
  state.leave();
  if (!state.eat(')')) {
    if (!state.tooDeep) state.error("'(' is never closed", open.span, "add the matching ')'");
    return null;
  }
  if (empty) state.error('empty parentheses', state.spanFrom(open.span.start.offset));
  // The node's span takes in its parentheses: that is the text it came from.
  return inner && { ...inner, span: state.spanFrom(open.span.start.offset) };
}
