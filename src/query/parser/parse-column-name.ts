import type { ColumnName, NamePart } from '../ast.js';
import { isBooleanKeywordText, isPipelineKeywordText } from '../lexical-rules.js';
import type { ParserState } from './parser-state.js';
import { isSymbol, type Token } from '../token.js';

/**
 * Where a column name is read. In `pipeline` commands `by` and `as` are keywords too (D7), so a
 * column of that name needs backticks there.
 */
export type NameContext = 'filter' | 'pipeline';

/**
 * Splits literal segments at their wildcards (D16): one `*` between segments is `star`, two in a
 * row (an empty segment between them) are `globstar`. Longer runs pair greedily: `***` is a
 * globstar then a star.
 */
export function namePartsFromSegments(segments: readonly string[]): NamePart[] {
  const parts: NamePart[] = [];
  let stars = 0;
  const flush = (): void => {
    for (; stars >= 2; stars -= 2) parts.push({ kind: 'globstar' });
    if (stars === 1) parts.push({ kind: 'star' });
    stars = 0;
  };
  segments.forEach((segment, i) => {
    if (segment !== '') {
      flush();
      parts.push({ kind: 'text', text: segment });
    }
    if (i < segments.length - 1) stars += 1;
  });
  flush();
  return parts;
}

/** Builds the column name a word or backtick token spells; reports an empty backtick name. */
export function columnFromToken(state: ParserState, token: Token): ColumnName {
  const parts = namePartsFromSegments(token.segments);
  if (parts.length === 0) state.error('empty column name', token.span);
  return { kind: 'column', quote: token.kind === 'backtick' ? 'backtick' : 'bare', parts, span: token.span };
}

/** Whether the token can be a column name here (keywords cannot, D7). */
export function isColumnToken(token: Token, context: NameContext): boolean {
  if (token.kind === 'backtick') return true;
  if (token.kind !== 'word') return false;
  return context === 'filter' ? !isBooleanKeywordText(token.text) : !isPipelineKeywordText(token.text);
}

/** Reads one column name, or reports what is there instead (consuming nothing) and returns null. */
export function parseColumnName(state: ParserState, context: NameContext, after: string): ColumnName | null {
  const token = state.peek();
  if (isColumnToken(token, context)) return columnFromToken(state, state.next());
  if (token.kind === 'invalid') {
    state.next();
    return null;
  }
  if (token.kind === 'word') {
    state.errorAtNext(`'${token.text}' is a keyword, not a column name`, `write \`${token.text}\` in backticks for a column of that name`);
  } else if (token.kind === 'single' || token.kind === 'double') {
    state.errorAtNext('a column name in quotes uses backticks', `write \`${token.segments.join('*')}\``);
  } else if (token.kind === 'number') {
    state.errorAtNext('a column name cannot start with a digit', `write \`${token.text}\` in backticks`);
  } else {
    state.errorAtNext(`expected a column name ${after}`);
  }
  return null;
}

/**
 * Reads `col, col, ...` up to `)`, the end of the stage or anything else that is not a `,`;
 * returns null after reporting a problem (the caller then skips the rest of the stage).
 */
export function parseColumnList(state: ParserState, context: NameContext, after: string): ColumnName[] | null {
  const columns: ColumnName[] = [];
  for (;;) {
    const column = parseColumnName(state, context, columns.length === 0 ? after : "after ','");
    if (!column) return null;
    columns.push(column);
    if (!state.eat(',')) return columns;
  }
}

/** Whether the next token ends an argument list: `)` or the end of the stage. */
export function atListEnd(state: ParserState): boolean {
  const token = state.peek();
  return isSymbol(token, ')') || token.kind === 'eof' || isSymbol(token, '|');
}
