import { scalarFunctions, type Scalar, type ScalarBinaryOperator } from '../ast.js';
import { closestName } from '../../core/index.js';
import { isScalarLiteralText } from '../lexical-rules.js';
import { columnFromToken } from './parse-column-name.js';
import { maxNestingDepth, type ParserState } from './parser-state.js';
import { isBooleanKeyword, isKeyword, isSymbol, type SymbolText, type Token } from '../token.js';

/** Binary operators by precedence level, loosest first (D26). */
const levels: readonly (readonly ScalarBinaryOperator[])[] = [['or'], ['and'], ['==', '!=', '<', '<=', '>', '>='], ['+', '-'], ['*', '/']];

/**
 * Reads a scalar expression (section 6.3, D26) in the `scalar` lexing mode and stops before the
 * first token that cannot continue it (`,`, `)`, `|`, the end). Binary operators associate to
 * the left. Returns null after reporting a problem.
 */
export function parseScalarExpr(state: ParserState): Scalar | null {
  return parseLevel(state, 0);
}

/** Reports anything but one of `closers` (or the end) after an expression. */
export function checkExpressionEnd(state: ParserState, closers: readonly SymbolText[]): boolean {
  const token = state.peek('scalar');
  if (token.kind === 'eof' || closers.some((c) => isSymbol(token, c))) return true;
  if (token.kind === 'invalid') {
    state.next('scalar');
    return false;
  }
  const hint = token.spaceBefore ? undefined : 'operators need spaces around them: a - 1';
  state.error(`unexpected '${token.text}' in the expression`, token.span, hint);
  return false;
}

function operatorAt(token: Token, level: number): ScalarBinaryOperator | null {
  const operators = levels[level] ?? [];
  if (token.kind === 'word') {
    const lower = token.text.toLowerCase();
    return isBooleanKeyword(token) && operators.includes(lower as ScalarBinaryOperator) ? (lower as ScalarBinaryOperator) : null;
  }
  if (token.kind !== 'symbol') return null;
  return operators.includes(token.text as ScalarBinaryOperator) ? (token.text as ScalarBinaryOperator) : null;
}

function parseLevel(state: ParserState, level: number): Scalar | null {
  if (level >= levels.length) return parseUnary(state);
  let left = parseLevel(state, level + 1);
  // A left-nested chain is as deep as it is long: count it against the nesting limit.
  let chain = 0;
  for (;;) {
    const token = state.peek('scalar');
    const op = operatorAt(token, level);
    if (!op) return left;
    state.next('scalar');
    // Spacing is checked only between two operands: with none after the operator, the operand
    // is what is missing (reported below), not a space.
    if (token.kind === 'symbol' && startsOperand(state.peek('scalar')) && (!token.spaceBefore || !state.peek('scalar').spaceBefore)) {
      const glued = !token.spaceBefore && !state.peek('scalar').spaceBefore && left?.kind === 'columnRef';
      const name = `${left?.span ? state.source.text.slice(left.span.start.offset, left.span.end.offset) : 'a'}${op}${state.peek('scalar').text}`;
      const hint = glued ? `for a column named ${name} write \`${name}\`` : 'binary operators need a space on each side';
      state.error(`put spaces around '${op}'`, token.span, hint);
    }
    chain += 1;
    if (state.depth + chain > maxNestingDepth) {
      // each operator of a chain nests the expression one level deeper
      state.reportTooDeep(token.span, `an expression chains more than ${maxNestingDepth} operators (or nests that deep)`);
      state.skipToStageEnd('scalar');
      return null;
    }
    const right = parseLevel(state, level + 1);
    if (!right) return null;
    left = left && { kind: 'binary', op, left, right, span: { start: left.span.start, end: right.span.end } };
  }
}

/** Whether a token can begin an operand: not the end, nor a `|`, `,` or `)` that ends one. */
function startsOperand(token: Token): boolean {
  return token.kind !== 'eof' && !isSymbol(token, '|') && !isSymbol(token, ',') && !isSymbol(token, ')');
}

function parseUnary(state: ParserState): Scalar | null {
  const token = state.peek('scalar');
  const minus = isSymbol(token, '-');
  if (!minus && !isKeyword(token, 'not')) return parsePrimary(state);
  state.next('scalar');
  const next = state.peek('scalar');
  if (minus && next.kind === 'number' && !next.spaceBefore) {
    // `-1` is a negative literal (D8); `- 1` and `-(1)` negate.
    state.next('scalar');
    const text = `-${next.text}`;
    return { kind: 'literal', value: -next.number, text, span: state.spanFrom(token.span.start.offset) };
  }
  if (!state.enter(token.span)) {
    state.skipToStageEnd('scalar');
    return null;
  }
  const operand = parseUnary(state);
  state.leave();
  return operand && { kind: 'unary', op: minus ? '-' : 'not', operand, span: state.spanFrom(token.span.start.offset) };
}

function parsePrimary(state: ParserState): Scalar | null {
  const token = state.peek('scalar');
  const span = token.span;
  switch (token.kind) {
    case 'number':
      state.next('scalar');
      return { kind: 'literal', value: token.number, text: token.text, span };
    case 'double':
      state.next('scalar');
      return { kind: 'literal', value: token.segments.join('*'), text: null, span };
    case 'single':
      state.next('scalar');
      state.error('strings in expressions use double quotes', span, `write "${token.segments.join('*').replaceAll('"', '\\"')}"`);
      return null;
    case 'backtick':
      state.next('scalar');
      return { kind: 'columnRef', column: columnFromToken(state, token), span };
    case 'word':
      return parseWord(state, token);
    case 'symbol':
      if (token.text === '(') return parseParenthesized(state, token);
      break;
    case 'invalid':
      state.next('scalar');
      return null;
    case 'eof':
      break;
  }
  state.errorAtNext('expected an expression', undefined, 'scalar');
  return null;
}

function parseWord(state: ParserState, token: Token): Scalar | null {
  const span = token.span;
  if (isBooleanKeyword(token)) {
    state.error(`expected an expression, found '${token.text}'`, span);
    return null;
  }
  state.next('scalar');
  if (isScalarLiteralText(token.text)) {
    const lower = token.text.toLowerCase();
    return { kind: 'literal', value: lower === 'null' ? null : lower === 'true', text: null, span };
  }
  if (isSymbol(state.peek('scalar'), '(')) return parseCall(state, token);
  return { kind: 'columnRef', column: columnFromToken(state, token), span };
}

function parseParenthesized(state: ParserState, open: Token): Scalar | null {
  state.next('scalar');
  if (!state.enter(open.span)) {
    state.skipToStageEnd('scalar');
    return null;
  }
  const inner = parseScalarExpr(state);
  state.leave();
  if (!inner) return null;
  // The node's span takes in its parentheses: that is the text it came from.
  if (state.eat(')', 'scalar')) return { ...inner, span: state.spanFrom(open.span.start.offset) };
  const next = state.peek('scalar');
  if (next.kind !== 'eof' && !isSymbol(next, '|')) checkExpressionEnd(state, [')']);
  else if (!state.tooDeep) state.error("'(' is never closed", open.span, "add the matching ')'");
  return null;
}

/** `name(args)`: the name must be one of D26's functions and the arity must match. */
function parseCall(state: ParserState, name: Token): Scalar | null {
  const open = state.next('scalar');
  const arity = Object.hasOwn(scalarFunctions, name.text) ? scalarFunctions[name.text] : undefined;
  if (!arity) {
    const known = Object.keys(scalarFunctions);
    const closest = closestName(name.text, known);
    state.error(`unknown function '${name.text}'`, name.span, `${closest ? `did you mean ${closest}? ` : ''}the functions are ${known.join(', ')}`);
  }
  const args: Scalar[] = [];
  if (!state.eat(')', 'scalar')) {
    if (!state.enter(open.span)) {
      state.skipToStageEnd('scalar');
      return null;
    }
    const ok = parseCallArguments(state, args);
    state.leave();
    if (!ok) return null;
  }
  // An unknown name or a wrong arity is reported but the call kept, so parsing carries on.
  const span = state.spanFrom(name.span.start.offset);
  if (arity && (args.length < arity.min || (arity.max !== null && args.length > arity.max))) {
    const count = arity.max === null ? `at least ${arity.min}` : `${arity.min}`;
    state.error(`${name.text} takes ${count} argument${arity.min === 1 ? '' : 's'}`, span);
  }
  return { kind: 'scalarCall', name: name.text, args, span };
}

function parseCallArguments(state: ParserState, args: Scalar[]): boolean {
  for (;;) {
    const arg = parseScalarExpr(state);
    if (!arg || !checkExpressionEnd(state, [',', ')'])) return false;
    args.push(arg);
    if (state.eat(')', 'scalar')) return true;
    if (!state.eat(',', 'scalar')) {
      state.errorAtNext("expected ',' or ')' after the argument", undefined, 'scalar');
      return false;
    }
  }
}
