import type { Span } from '../../core/index.js';
import { Lexer } from '../lexer.js';
import { SourceText } from '../source-text.js';
import { syntaxDiagnostic, type QueryDiagnostic } from '../syntax-diagnostic.js';
import { isSymbol, type LexMode, type SymbolText, type Token } from '../token.js';

/** Deeper nesting than this is refused, so recursion stays bounded on any input. */
export const maxNestingDepth = 200;
/** After this many problems the rest is not worth reading: one more diagnostic says so. */
const maxDiagnostics = 100;

/**
 * The cursor and the problem list shared by the parse functions. Tokens are read lazily in the
 * mode the grammar expects (`peek(mode)`); `next` consumes one and reports the problems the
 * lexer found in it. Problems are recorded once per place and message, so recovery that looks
 * at a token twice cannot report it twice.
 */
export class ParserState {
  readonly source: SourceText;
  private readonly lexer: Lexer;
  private offset = 0;
  /** End offset of the last consumed token: where the node being built ends. */
  lastEnd = 0;
  private peeked: { offset: number; mode: LexMode; token: Token } | null = null;
  private readonly problems: QueryDiagnostic[] = [];
  private readonly seen = new Set<string>();
  depth = 0;
  /** Set when nesting exceeded the limit: enclosing levels then stop reporting missing `)`. */
  tooDeep = false;

  constructor(text: string) {
    this.source = new SourceText(text);
    this.lexer = new Lexer(this.source);
  }

  get diagnostics(): readonly QueryDiagnostic[] {
    return this.problems;
  }

  peek(mode: LexMode = 'filter'): Token {
    const cached = this.peeked;
    if (cached && cached.offset === this.offset && cached.mode === mode) return cached.token;
    const token = this.lexer.read(this.offset, mode);
    this.peeked = { offset: this.offset, mode, token };
    return token;
  }

  /** The token after the next one (both read in `mode`), for the few two-token decisions. */
  peekSecond(mode: LexMode = 'filter'): Token {
    return this.lexer.read(this.peek(mode).span.end.offset, mode);
  }

  next(mode: LexMode = 'filter'): Token {
    const token = this.peek(mode);
    if (token.kind === 'eof') return token;
    for (const problem of token.problems) this.error(problem.message, problem.span, problem.hint);
    this.offset = token.span.end.offset;
    this.lastEnd = this.offset;
    return token;
  }

  atSymbol(symbol: SymbolText, mode: LexMode = 'filter'): boolean {
    return isSymbol(this.peek(mode), symbol);
  }

  /** Consumes `symbol` if it is next. */
  eat(symbol: SymbolText, mode: LexMode = 'filter'): boolean {
    if (!this.atSymbol(symbol, mode)) return false;
    this.next(mode);
    return true;
  }

  atEnd(mode: LexMode = 'filter'): boolean {
    return this.peek(mode).kind === 'eof';
  }

  /** Whether the next token ends a pipeline stage: `|` or the end of the text. */
  atStageEnd(mode: LexMode = 'filter'): boolean {
    const token = this.peek(mode);
    return token.kind === 'eof' || isSymbol(token, '|');
  }

  error(message: string, span: Span, hint?: string): void {
    const key = `${span.start.offset}:${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.problems.length === maxDiagnostics) {
      this.problems.push(syntaxDiagnostic('too many problems; stopped reporting', span));
    }
    if (this.problems.length > maxDiagnostics) return;
    this.problems.push(syntaxDiagnostic(message, span, hint));
  }

  /** Reports a problem at the next token (for "expected ..." messages). */
  errorAtNext(message: string, hint?: string, mode: LexMode = 'filter'): void {
    this.error(message, this.peek(mode).span, hint);
  }

  /** The span from `start` (an offset) to the end of the last consumed token. */
  spanFrom(start: number): Span {
    return this.source.span(start, Math.max(start, this.lastEnd));
  }

  /** Skips tokens up to (not including) the next `|` at this level or the end. */
  skipToStageEnd(mode: LexMode = 'filter'): void {
    while (!this.atStageEnd(mode)) this.next(mode);
  }

  /**
   * Enters one level of nesting; false (with one diagnostic) when too deep, in which case the
   * caller must not recurse. Pair every `true` with `leave()`.
   */
  enter(span: Span): boolean {
    if (this.depth >= maxNestingDepth) {
      this.reportTooDeep(span);
      return false;
    }
    this.depth += 1;
    return true;
  }

  /** Reports nesting past the limit once; `what` names what nests (default: the query's levels). */
  reportTooDeep(span: Span, what = `nesting is deeper than ${maxNestingDepth} levels`): void {
    if (!this.tooDeep) this.error(what, span, 'simplify the query');
    this.tooDeep = true;
  }

  leave(): void {
    this.depth -= 1;
  }
}
