import type { IndexTarget } from '../ast.js';
import type { ParserState } from './parser-state.js';
import { isKeyword, isSymbol, type Token } from '../token.js';

/**
 * Reads the selector after `@index=` or `@index:` (D18): a name (bare or quoted), a brace target
 * or a parenthesized list of them meaning "any of" (juxtaposed or joined by `or`).
 *
 * Inside braces a bare text is the index id (it may start with a digit, like a UUID) and a quoted
 * text is the name: `{uuid}`, `{uuid | "name"}`, and also `{"name"}` alone, which means the same
 * as `@index="name"`. Index names hold no wildcards.
 */
export function parseIndexSelector(state: ParserState, operator: Token): IndexTarget[] | null {
  const token = state.peek();
  if (!isSymbol(token, '(')) {
    const target = parseTarget(state, `after '${operator.text}'`);
    return target && [target];
  }
  const open = state.next();
  const targets: IndexTarget[] = [];
  let ok = true;
  while (!state.atSymbol(')') && !state.atStageEnd()) {
    const next = state.peek();
    if (isKeyword(next, 'or')) {
      state.next();
      continue;
    }
    if (isKeyword(next, 'and') || isKeyword(next, 'not')) {
      state.error(`'${next.text}' in an @index list`, next.span, "an @index list names alternatives: write '@index=(a b)' or '@index=(a or b)'");
      state.next();
      ok = false;
      continue;
    }
    const target = parseTarget(state, 'in the @index list');
    if (target) targets.push(target);
    else ok = false;
  }
  if (!state.eat(')')) {
    state.error("'(' is never closed", open.span, "add ')' after the last index");
    return null;
  }
  if (targets.length === 0 && ok) state.error('empty @index list', state.spanFrom(open.span.start.offset));
  return ok && targets.length > 0 ? targets : null;
}

function parseTarget(state: ParserState, where: string): IndexTarget | null {
  const token = state.peek();
  if (isSymbol(token, '{')) return parseBraceTarget(state);
  const name = readName(state, token);
  if (name === null) {
    // Consume what is there unless it closes something, so a list loop always advances.
    if (token.kind !== 'invalid') state.errorAtNext(`expected an index ${where}`, 'write @index=name, @index="name" or @index={id}');
    if (!state.atSymbol(')') && !state.atStageEnd()) state.next();
    return null;
  }
  state.next();
  return { kind: 'indexTarget', name, id: null, span: token.span };
}

/**
 * The index name or id a bare or quoted token spells (no wildcards); null when it is none. A
 * bare `and`, `or`, `not` is a keyword, except as an id in braces, where no operator can stand.
 */
function readName(state: ParserState, token: Token, inBraces = false): string | null {
  const keyword = isKeyword(token, 'and') || isKeyword(token, 'or') || isKeyword(token, 'not');
  const isName = (token.kind === 'word' && (inBraces || !keyword)) || token.kind === 'single' || token.kind === 'double';
  if (!isName) return null;
  if (token.segments.length > 1) {
    state.error('an index name cannot hold a wildcard', token.span, 'list the indexes: @index=(a b)');
  }
  return token.segments.join('*');
}

function parseBraceTarget(state: ParserState): IndexTarget | null {
  const open = state.next();
  let id: string | null = null;
  let name: string | null = null;
  const first = state.peek('indexId');
  if (first.kind === 'word') {
    id = readName(state, state.next('indexId'), true);
    if (state.eat('|', 'indexId')) name = readBraceName(state);
  } else if (first.kind === 'single' || first.kind === 'double') {
    name = readBraceName(state);
  } else {
    state.errorAtNext("expected an index id or a quoted name after '{'", 'write @index={id} or @index={id | "name"}', 'indexId');
  }
  if (!state.eat('}', 'indexId')) {
    if (id !== null || name !== null) state.errorAtNext("expected '}'", 'write @index={id} or @index={id | "name"}', 'indexId');
    while (!state.atSymbol('}', 'indexId') && !state.atStageEnd('indexId')) state.next('indexId');
    state.eat('}', 'indexId');
    return null;
  }
  if (id === null && name === null) return null;
  return { kind: 'indexTarget', name, id, span: state.spanFrom(open.span.start.offset) };
}

function readBraceName(state: ParserState): string | null {
  const token = state.peek('indexId');
  if (token.kind === 'single' || token.kind === 'double' || token.kind === 'word') {
    state.next('indexId');
    return readName(state, token, true);
  }
  state.errorAtNext("expected the index name after '|'", 'write @index={id | "name"}', 'indexId');
  return null;
}
