import type { NumberValue, StringValue, Value, ValueExpr } from '../ast.js';
import { combineValues } from '../combine.js';
import type { ParserState } from './parser-state.js';
import { isBooleanKeyword, isKeyword, isSymbol, type Token } from '../token.js';

/** Whether the token is a value: a bare string (not a keyword), a quoted string or a number. */
export function isValueToken(token: Token): boolean {
  if (token.kind === 'word') return !isBooleanKeyword(token);
  return token.kind === 'single' || token.kind === 'double' || token.kind === 'number';
}

/** The value a token (for which `isValueToken` holds) spells. */
export function valueFromToken(token: Token): Value {
  if (token.kind === 'number') return numberFromToken(token);
  const quote = token.kind === 'single' ? 'single' : token.kind === 'double' ? 'double' : 'bare';
  const value: StringValue = { kind: 'string', quote, segments: token.segments, span: token.span };
  return value;
}

export function numberFromToken(token: Token): NumberValue {
  return { kind: 'number', text: token.text, value: token.number, span: token.span };
}

/**
 * Reads what follows `col:` or `col =`: one value or a parenthesized group (D15). On a missing
 * value it reports at the token found instead and consumes nothing, so a following `|` or `)`
 * still closes what it closes.
 */
export function parseValueExpr(state: ParserState, operator: Token): ValueExpr | null {
  const token = state.peek();
  if (isSymbol(token, '(')) return parseValueGroup(state);
  if (isValueToken(token)) return valueFromToken(state.next());
  if (token.kind === 'invalid') {
    state.next();
    return null;
  }
  const expected = `expected a value after '${operator.text}'`;
  if (isKeyword(token, 'not')) {
    state.errorAtNext(expected, `write 'not col${operator.text} v' to negate, or 'col${operator.text} (not v)'`);
  } else if (isBooleanKeyword(token)) {
    // Consumed, so that it does not read as an operator missing its left operand.
    state.errorAtNext(expected, `quote the word to search for it: '${token.text}'`);
    state.next();
  } else if (token.kind === 'eof' || isSymbol(token, '|') || isSymbol(token, ')')) {
    state.errorAtNext(expected, `write 'col${operator.text} *' to test that the column exists`);
  } else {
    state.errorAtNext(expected);
  }
  return null;
}

/**
 * `( ... )` after a column: juxtaposed values mean `or` (D15); explicit `and`, `or`, `not` are
 * honoured with `not` over `and` over `or` (D19). Nested groups flatten into their parent when
 * of the same kind, the canonical form.
 */
function parseValueGroup(state: ParserState): ValueExpr | null {
  const open = state.next();
  if (!state.enter(open.span)) {
    state.skipToStageEnd();
    return null;
  }
  const operands: ValueExpr[] = [];
  const empty = state.atSymbol(')');
  for (;;) {
    const item = parseValueOr(state);
    if (item) operands.push(item);
    if (state.atSymbol(')') || state.atStageEnd()) break;
    const stray = state.next();
    const hint = isSymbol(stray, ',') ? "separate values with spaces or 'or'" : "quote values that hold punctuation: 'a:b'";
    state.error(`unexpected '${stray.text}' in a value group`, stray.span, hint);
  }
  state.leave();
  if (!state.eat(')')) {
    if (!state.tooDeep) state.error("'(' is never closed", open.span, "add ')' after the last value");
    return null;
  }
  if (empty) state.error('empty value group', state.spanFrom(open.span.start.offset), "write 'col: *' to test that the column exists");
  if (operands.length === 0) return null;
  // The node's span takes in its parentheses: that is the text it came from.
  return { ...combineValues('valueOr', operands), span: state.spanFrom(open.span.start.offset) };
}

function canStartValue(token: Token): boolean {
  return isValueToken(token) || isKeyword(token, 'not') || isSymbol(token, '(') || token.kind === 'invalid';
}

function parseValueOr(state: ParserState): ValueExpr | null {
  const operands: ValueExpr[] = [];
  let attempted = false; // as in parse-filter: a failed operand still stands on the left
  for (;;) {
    const token = state.peek();
    if (isKeyword(token, 'or')) {
      state.next();
      if (!attempted) state.error("'or' needs a value on its left", token.span);
      if (!canStartValue(state.peek())) state.errorAtNext("expected a value after 'or'");
    } else if (canStartValue(token) || isKeyword(token, 'and')) {
      attempted = true;
      const operand = parseValueAnd(state);
      if (operand) operands.push(operand);
    } else {
      break;
    }
  }
  return operands.length === 0 ? null : combineValues('valueOr', operands);
}

function parseValueAnd(state: ParserState): ValueExpr | null {
  const operands: ValueExpr[] = [];
  let expectOperand = true;
  for (;;) {
    const token = state.peek();
    if (isKeyword(token, 'and')) {
      state.next();
      if (expectOperand) state.error("'and' needs a value on its left", token.span);
      if (!canStartValue(state.peek())) state.errorAtNext("expected a value after 'and'");
      expectOperand = true;
    } else if (expectOperand && canStartValue(token)) {
      const operand = parseValueNot(state);
      if (operand) operands.push(operand);
      expectOperand = false;
    } else {
      break;
    }
  }
  return operands.length === 0 ? null : combineValues('valueAnd', operands);
}

function parseValueNot(state: ParserState): ValueExpr | null {
  const token = state.peek();
  if (!isKeyword(token, 'not')) {
    if (isSymbol(token, '(')) return parseValueGroup(state);
    state.next();
    return token.kind === 'invalid' ? null : valueFromToken(token);
  }
  state.next();
  if (!canStartValue(state.peek())) {
    state.errorAtNext("expected a value after 'not'");
    return null;
  }
  if (!state.enter(token.span)) {
    state.skipToStageEnd();
    return null;
  }
  const operand = parseValueNot(state);
  state.leave();
  return operand && { kind: 'valueNot', operand, span: state.spanFrom(token.span.start.offset) };
}
