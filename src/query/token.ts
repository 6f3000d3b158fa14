import type { Span } from '../core/index.js';

/**
 * How the lexer reads the text at a position; the parser asks for the mode its grammar expects
 * there, because the language is context-dependent: `a-1` is one term in a filter but `a - 1`
 * written without spaces in an expression, and an index id may start with a digit.
 *
 * - `filter`: filters and pipeline command arguments (bare strings per section 2.1, numbers per D8);
 * - `indexId`: inside `@index={...}`, where a bare id such as a UUID may start with a digit;
 * - `scalar`: scalar expressions (section 6.3): operators, narrower bare names, `*` as multiply.
 */
export type LexMode = 'filter' | 'indexId' | 'scalar';

export type TokenKind =
  | 'word' // a bare string, column name, keyword or command name
  | 'number' // -?digits[.digits][e[+-]digits] (D8); unsigned in scalar mode
  | 'single' // '...'
  | 'double' // "..."
  | 'backtick' // `...` (a column name)
  | 'symbol' // punctuation and operators, see SymbolText
  | 'invalid' // text that cannot start or be a token; `problems` says why
  | 'eof';

export type SymbolText = '(' | ')' | '{' | '}' | '|' | ',' | ':' | '=' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/';

/** A problem found while reading one token (an unknown escape, an unterminated string). */
export interface LexProblem {
  readonly message: string;
  readonly span: Span;
  readonly hint?: string;
}

export interface Token {
  readonly kind: TokenKind;
  /** The source text of the token, quotes included. */
  readonly text: string;
  /**
   * Words, strings and backtick names: the unescaped literal pieces between unescaped `*`
   * (the shape of `StringValue.segments`); empty for other kinds.
   */
  readonly segments: readonly string[];
  /** The value of a `number` token; NaN otherwise. */
  readonly number: number;
  readonly span: Span;
  /** Whether whitespace or a comment precedes the token (binary operators need spaces, 6.3). */
  readonly spaceBefore: boolean;
  readonly problems: readonly LexProblem[];
}

export function isSymbol(token: Token, symbol: SymbolText): boolean {
  return token.kind === 'symbol' && token.text === symbol;
}

/** Whether the token is the keyword `keyword` in any letter case (D7). */
export function isKeyword(token: Token, keyword: string): boolean {
  return token.kind === 'word' && token.text.length === keyword.length && token.text.toLowerCase() === keyword;
}

/** `and`, `or`, `not` are reserved everywhere (D7). */
export function isBooleanKeyword(token: Token): boolean {
  return isKeyword(token, 'and') || isKeyword(token, 'or') || isKeyword(token, 'not');
}
