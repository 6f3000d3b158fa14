import {
  hasValidScalarNameMarks,
  isBareChar,
  isBareStart,
  isControl,
  isDigit,
  isScalarNameChar,
  isScalarNameStart,
  isSpace,
  numberPattern,
  unsignedNumberPattern,
} from './lexical-rules.js';
import { readQuoted } from './read-quoted.js';
import type { SourceText } from './source-text.js';
import type { LexMode, LexProblem, SymbolText, Token, TokenKind } from './token.js';

const singleSymbols = new Set(['(', ')', '{', '}', '|', ',', ':']);

/**
 * Reads tokens on demand: `read(offset, mode)` returns the token after `offset`, skipping
 * whitespace and `#` comments (D5). It keeps no cursor, so the parser may ask for the token at
 * the same place in another mode (see `LexMode`). It never throws: text that is no token comes
 * back as an `invalid` token carrying the problem, covering the whole run of word characters so
 * the parser resumes at the next boundary.
 */
export class Lexer {
  constructor(private readonly source: SourceText) {}

  read(offset: number, mode: LexMode): Token {
    const start = this.skipSpace(offset);
    const spaceBefore = start > offset || offset === 0;
    const text = this.source.text;
    const ch = text[start];
    if (ch === undefined) return this.token('eof', start, start, spaceBefore);
    if (ch === '"' || ch === "'" || ch === '`') {
      const read = readQuoted(this.source, start);
      const kind: TokenKind = ch === '"' ? 'double' : ch === "'" ? 'single' : 'backtick';
      return this.token(kind, start, read.end, spaceBefore, { segments: read.segments, problems: read.problems });
    }
    const symbol = this.readSymbol(start, mode);
    if (symbol) return this.token('symbol', start, start + symbol.length, spaceBefore);
    switch (mode) {
      case 'filter':
        return this.readFilterWord(start, spaceBefore);
      case 'indexId':
        return this.readIndexId(start, spaceBefore);
      case 'scalar':
        return this.readScalarWord(start, spaceBefore);
    }
  }

  private skipSpace(offset: number): number {
    const text = this.source.text;
    let p = offset;
    for (;;) {
      const ch = text[p];
      if (ch === undefined) return p;
      if (ch === '#') {
        const newline = text.indexOf('\n', p);
        p = newline < 0 ? text.length : newline;
      } else if (isSpace(ch)) {
        p += 1;
      } else {
        return p;
      }
    }
  }

  private readSymbol(p: number, mode: LexMode): SymbolText | null {
    const text = this.source.text;
    const ch = text[p] ?? '';
    if (singleSymbols.has(ch)) return ch as SymbolText;
    const next = text[p + 1];
    if (ch === '=' || ch === '<' || ch === '>') return (next === '=' ? `${ch}=` : ch) as SymbolText;
    if (ch === '!' && next === '=') return '!=';
    if (mode !== 'scalar') return null;
    if (ch === '+' || ch === '/') return ch;
    if (ch === '-') return '-';
    // `*` starts a name when a name character follows (`*.arn`), otherwise it multiplies.
    if (ch === '*' && !(next !== undefined && isScalarNameChar(next))) return '*';
    return null;
  }

  private readFilterWord(start: number, spaceBefore: boolean): Token {
    const text = this.source.text;
    const ch = text[start] ?? '';
    if (isDigit(ch) || (ch === '-' && isDigit(text[start + 1] ?? ''))) {
      const end = this.matchNumber(numberPattern, start, isBareChar);
      if (end !== null) return this.number(start, end, spaceBefore);
      // Text that starts with a digit but is not a number (`1password`, `2sv_disable`,
      // `0.0.0.0`, `404*`) is a bare string: the public rule packs write such values unquoted.
      if (ch !== '-') return this.bareWord(start, spaceBefore);
      const runEnd = this.bareRunEnd(start + 1);
      const run = text.slice(start, runEnd);
      return this.invalid(start, runEnd, spaceBefore, `'${run}' is not a number`, `quote text that starts with '-': "${run}"`);
    }
    if (isBareStart(ch) || (ch === '\\' && text[start + 1] === '*')) return this.bareWord(start, spaceBefore);
    return this.unexpected(start, spaceBefore);
  }

  /** Inside `@index={...}` an id is any run of bare characters, even one starting with a digit. */
  private readIndexId(start: number, spaceBefore: boolean): Token {
    if (isBareChar(this.source.text[start] ?? '')) return this.bareWord(start, spaceBefore);
    return this.unexpected(start, spaceBefore);
  }

  private readScalarWord(start: number, spaceBefore: boolean): Token {
    const text = this.source.text;
    const ch = text[start] ?? '';
    if (isDigit(ch)) {
      const end = this.matchNumber(unsignedNumberPattern, start, isScalarNameChar);
      if (end !== null) return this.number(start, end, spaceBefore);
      let runEnd = start + 1;
      while (runEnd < text.length && isScalarNameChar(text[runEnd] ?? '')) runEnd += 1;
      const run = text.slice(start, runEnd);
      const hint = 'operators need spaces around them; a column name that starts with a digit goes in backticks';
      return this.invalid(start, runEnd, spaceBefore, `'${run}' is not a number`, hint);
    }
    if (!isScalarNameStart(ch)) return this.unexpected(start, spaceBefore);
    let end = start + 1;
    while (end < text.length && isScalarNameChar(text[end] ?? '')) end += 1;
    const name = text.slice(start, end);
    if (!hasValidScalarNameMarks(name)) {
      const hint = `in an expression '@' and '%' may only start a name or follow a '.'; write \`${name}\` in backticks`;
      return this.invalid(start, end, spaceBefore, `'${name}' is not a column name`, hint);
    }
    return this.token('word', start, end, spaceBefore, { segments: name.split('*') });
  }

  /** A number must end at a word boundary: `10.0.0.1` and `404*` are not numbers. */
  private matchNumber(pattern: RegExp, start: number, continues: (ch: string) => boolean): number | null {
    pattern.lastIndex = start;
    const match = pattern.exec(this.source.text);
    if (!match) return null;
    const end = start + match[0].length;
    const next = this.source.text[end];
    return next !== undefined && continues(next) ? null : end;
  }

  /**
   * A bare string. `\*` is a literal asterisk (2.4); any other backslash is itself, so rule
   * packs can write Windows paths bare (`Windows\System32\cmd.exe`). Bare text has no `\\`
   * escape, so a backslash followed by a wildcard can only be written quoted (`'dir\\*'`).
   */
  private bareWord(start: number, spaceBefore: boolean): Token {
    const text = this.source.text;
    const segments: string[] = [];
    let current = '';
    let p = start;
    while (p < text.length && isBareChar(text[p] ?? '')) {
      const ch = text[p] ?? '';
      if (ch === '\\' && text[p + 1] === '*') {
        current += '*';
        p += 2;
      } else if (ch === '*') {
        segments.push(current);
        current = '';
        p += 1;
      } else {
        current += ch;
        p += 1;
      }
    }
    segments.push(current);
    return this.token('word', start, p, spaceBefore, { segments });
  }

  private bareRunEnd(from: number): number {
    const text = this.source.text;
    let p = from;
    while (p < text.length && isBareChar(text[p] ?? '')) p += 1;
    return p;
  }

  private unexpected(start: number, spaceBefore: boolean): Token {
    const text = this.source.text;
    const ch = String.fromCodePoint(text.codePointAt(start) ?? 0);
    const end = isBareChar(ch) ? this.bareRunEnd(start + 1) : start + ch.length;
    const run = text.slice(start, end);
    const shown = isControl(ch) ? `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : `'${ch}'`;
    return this.invalid(start, end, spaceBefore, `unexpected ${shown}`, unexpectedHint(ch, run));
  }

  private number(start: number, end: number, spaceBefore: boolean): Token {
    return this.token('number', start, end, spaceBefore, { number: Number(this.source.text.slice(start, end)) });
  }

  private invalid(start: number, end: number, spaceBefore: boolean, message: string, hint?: string): Token {
    const problem: LexProblem = { message, span: this.source.span(start, end), ...(hint === undefined ? {} : { hint }) };
    return this.token('invalid', start, end, spaceBefore, { problems: [problem] });
  }

  private token(
    kind: TokenKind,
    start: number,
    end: number,
    spaceBefore: boolean,
    extra: { segments?: readonly string[]; number?: number; problems?: readonly LexProblem[] } = {},
  ): Token {
    return {
      kind,
      text: this.source.text.slice(start, end),
      segments: extra.segments ?? [],
      number: extra.number ?? Number.NaN,
      span: this.source.span(start, end),
      spaceBefore,
      problems: extra.problems ?? [],
    };
  }
}

function unexpectedHint(ch: string, run: string): string | undefined {
  if (ch === '-') return `to exclude matches write 'not ${run.slice(1) || 'term'}'`;
  if (ch === '!') return "write 'not' to negate";
  if (ch === '~') return 'there are no regular expressions; use * wildcards';
  if (isControl(ch)) return undefined;
  if (run.length > 0 && isBareChar(ch)) return `a bare term starts with a letter or one of * @ % _; quote it: '${run}'`;
  return undefined;
}
