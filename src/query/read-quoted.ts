import type { SourceText } from './source-text.js';
import type { LexProblem } from './token.js';

export interface QuotedRead {
  /** Offset just past the closing quote, or where the unterminated text stops. */
  readonly end: number;
  readonly segments: readonly string[];
  readonly problems: readonly LexProblem[];
}

const simpleEscapes: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  '`': '`',
  n: '\n',
  t: '\t',
  r: '\r',
};

const escapeList = '\\\\ \\\' \\" \\` \\* \\n \\t \\r \\u{HEX}';

/**
 * Reads a quoted string or backtick name whose opening quote is at `start`. Escapes are exactly
 * those of D6; `\*` is a literal asterisk and an unescaped `*` splits the text into segments (a
 * wildcard). Quoted text ends at the end of its line: a string left open is reported once,
 * pointing at its opening quote, and the lexer carries on with the next line, so one missing
 * quote does not swallow the rest of a multi-line query.
 */
export function readQuoted(source: SourceText, start: number): QuotedRead {
  const text = source.text;
  const quote = text[start] ?? '"';
  const segments: string[] = [];
  const problems: LexProblem[] = [];
  let current = '';
  let p = start + 1;
  for (;;) {
    const ch = text[p];
    if (ch === undefined || ch === '\n') {
      const what = quote === '`' ? 'column name' : 'string';
      problems.push({
        message: `unterminated ${what}`,
        span: source.span(start, start + 1),
        hint: `close it with ${quote} on the same line (write \\n for a line break)`,
      });
      segments.push(current);
      return { end: p, segments, problems };
    }
    if (ch === quote) {
      segments.push(current);
      return { end: p + 1, segments, problems };
    }
    if (ch === '*') {
      segments.push(current);
      current = '';
      p += 1;
      continue;
    }
    if (ch !== '\\') {
      current += ch;
      p += 1;
      continue;
    }
    const next = text[p + 1];
    if (next === undefined || next === '\n') {
      current += '\\';
      p += 1;
      continue; // reported as unterminated on the next turn
    }
    if (next === '*') {
      current += '*';
      p += 2;
      continue;
    }
    const simple = simpleEscapes[next];
    if (simple !== undefined) {
      current += simple;
      p += 2;
      continue;
    }
    if (next === 'u') {
      const unicode = readUnicodeEscape(text, p);
      if (unicode) {
        current += unicode.char;
        p = unicode.end;
        continue;
      }
      const end = /^u\{[0-9A-Za-z]*\}?/.exec(text.slice(p + 1, p + 12))?.[0].length ?? 1;
      problems.push({
        message: 'invalid unicode escape',
        span: source.span(p, p + 1 + end),
        hint: 'write \\u{HEX} with 1 to 6 hex digits up to 10FFFF, e.g. \\u{e9}',
      });
      p += 1 + end;
      continue;
    }
    const length = 1 + String.fromCodePoint(text.codePointAt(p + 1) ?? 0).length;
    problems.push({
      message: `unknown escape '${text.slice(p, p + length)}'`,
      span: source.span(p, p + length),
      hint: `the escapes are ${escapeList}; write \\\\ for a backslash`,
    });
    current += text.slice(p + 1, p + length);
    p += length;
  }
}

function readUnicodeEscape(text: string, p: number): { char: string; end: number } | null {
  const match = /^\\u\{([0-9A-Fa-f]{1,6})\}/.exec(text.slice(p, p + 11));
  if (!match) return null;
  const code = Number.parseInt(match[1] ?? '', 16);
  if (code > 0x10ffff) return null;
  return { char: String.fromCodePoint(code), end: p + match[0].length };
}
