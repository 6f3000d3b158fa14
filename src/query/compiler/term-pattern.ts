/**
 * Turns a term into the RE2 pattern of its exact meaning (docs/query-language.md, "How a term
 * matches a value") and into the tokens a text index can prefilter on.
 */
import { asciiLower } from '../../core/index.js';
import type { StringQuote } from '../ast.js';

/** Where the pattern runs: one column's value, or `search_text` (values joined by NUL). */
export type PatternTarget = 'value' | 'valueList';

export type MatchMode = 'contains' | 'whole';

/** A term as the compiler sees it: literal pieces with one wildcard between neighbours. */
export interface TermPieces {
  readonly segments: readonly string[];
  readonly quote: StringQuote;
}

// ASCII characters that are not token characters (D9): every separator is ASCII, and NUL, the
// value separator of search_text, is one of them.
const separatorClass = '[\\x00-\\x2f\\x3a-\\x40\\x5b-\\x5e\\x60\\x7b-\\x7f]';

/** True for token characters: ASCII letters, digits, `_`, and anything beyond ASCII (D9). */
export function isTokenChar(codePoint: number): boolean {
  return (
    codePoint >= 0x80 || (codePoint >= 0x30 && codePoint <= 0x39) || (codePoint >= 0x41 && codePoint <= 0x5a) || (codePoint >= 0x61 && codePoint <= 0x7a) || codePoint === 0x5f
  );
}

/**
 * The RE2 pattern (for ClickHouse `match`) that is true exactly when the term matches. Letter
 * case is folded by character classes (`[aA]`), never by `(?i)`, which would also fold
 * non-ASCII letters (and the Kelvin sign into `k`).
 */
export function termPattern(term: TermPieces, mode: MatchMode, target: PatternTarget): string {
  const { segments } = term;
  const foldCase = term.quote !== 'double';
  const wildcard = target === 'value' ? '.*' : '[^\\x00]*';
  const body = segments.map((segment) => literalPattern(segment, foldCase)).join(wildcard);
  const first = segments[0] ?? '';
  const last = segments[segments.length - 1] ?? '';
  if (mode === 'whole') {
    return target === 'value' ? `(?s)^${body}$` : `(?s)(?:^|\\x00)${body}(?:\\x00|$)`;
  }
  if (segments.length === 1 && first === '') {
    // An empty term matches only an empty value.
    return target === 'value' ? '^$' : '(?:^|\\x00)(?:\\x00|$)';
  }
  const startsAtToken = first !== '' && isTokenChar(first.codePointAt(0) as number);
  const endsAtToken = last !== '' && isTokenChar(lastCodePoint(last));
  // A term that starts (ends) with a separator is at a token boundary wherever it occurs.
  const startAnchor = startsAtToken ? `(?:^|${separatorClass})` : '';
  const endAnchor = endsAtToken ? `(?:$|${separatorClass})` : '';
  return `(?s)${startAnchor}${body}${endAnchor}`;
}

function lastCodePoint(text: string): number {
  const code = text.codePointAt(text.length - 1) as number;
  // a low surrogate: step back to the start of the pair
  return code >= 0xdc00 && code <= 0xdfff && text.length > 1 ? (text.codePointAt(text.length - 2) as number) : code;
}

// What a number's text is made of: canonical text (`-1.5`, `1e-7`, `1e+21`), and `inf` / `nan`
// as the engine prints them (`Infinity` in JavaScript), though stored numbers are finite.
const numberTextChars = new Set('0123456789.-+einftya');

/**
 * False when the term cannot match any number's text: a literal character that no such text
 * holds (with ASCII case folded, as patterns fold it), or more than one `.` over all its literal
 * pieces, which a match would need in one text. Matching such a term against a column then
 * needs only the column's string values (`10.47.1.208`, `powershell`), and the number
 * variants, each a sub-column read for every candidate row, can be left unread.
 */
export function mayMatchNumberText(segments: readonly string[]): boolean {
  let dots = 0;
  for (const segment of segments) {
    for (const ch of asciiLower(segment)) {
      if (!numberTextChars.has(ch)) return false;
      if (ch === '.') dots++;
    }
  }
  return dots <= 1;
}

/** True when the term is only wildcards: "exists" after a column, "everything" as free text. */
export function isWildcardOnly(segments: readonly string[]): boolean {
  return segments.length > 1 && segments.every((segment) => segment === '');
}

function literalPattern(text: string, foldCase: boolean): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (foldCase && ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a))) {
      out += `[${ch.toUpperCase()}${ch.toLowerCase()}]`;
    } else if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f) {
      out += ch;
    } else {
      // Everything else by code point: no metacharacter, control or quote survives as itself.
      out += `\\x{${cp.toString(16)}}`;
    }
  }
  return out;
}

/**
 * Words of the term that must occur whole in the text for the term to match: runs of token
 * characters (D9) that are bounded on both sides inside the term by a separator or by an
 * anchored end. Runs touching a wildcard or an unanchored end may be partial words, so they are
 * left out.
 */
export function prefilterTokens(term: TermPieces): string[] {
  return [
    ...new Set(
      wordRuns(term)
        .filter((run) => run.whole)
        .map((run) => asciiLower(run.text)),
    ),
  ];
}

/**
 * Parts of words shorter than this are not looked up: the engine's text index answers a `LIKE`
 * by scanning its dictionary only for patterns of at least 4 characters
 * (`text_index_like_min_pattern_length`), and shorter ones occur in too many words to narrow much.
 */
export const minPartialWordChars = 4;

/**
 * The runs of token characters that `prefilterTokens` leaves out because they may be part of a
 * longer word (`mimikatz` in `*mimikatz*`), of at least `minPartialWordChars` characters,
 * ASCII letters lower-cased. Each occurs inside one word of any text the term matches.
 */
export function partialWords(term: TermPieces): string[] {
  const runs = wordRuns(term).filter((run) => !run.whole && [...run.text].length >= minPartialWordChars);
  return [...new Set(runs.map((run) => asciiLower(run.text)))];
}

// Each run of token characters in the term's literal pieces, and whether it is a whole word.
function wordRuns(term: TermPieces): { text: string; whole: boolean }[] {
  const { segments } = term;
  return segments.flatMap((segment, i) => {
    const anchoredStart = i === 0;
    const anchoredEnd = i === segments.length - 1;
    return splitRuns(segment).map((run, j) => {
      const boundedLeft = run.start > 0 || (anchoredStart && j === 0 && run.start === 0);
      const boundedRight = run.end < segment.length || (anchoredEnd && run.end === segment.length);
      return { text: run.text, whole: boundedLeft && boundedRight };
    });
  });
}

/**
 * The one word a term is, when matching it anywhere in a text means holding that word: no
 * wildcard, only token characters (D9, D11), and letter case folded (a double-quoted term
 * qualifies only without ASCII letters). Null for any other term.
 */
export function wholeWordTerm(term: TermPieces): string | null {
  const [text] = term.segments;
  if (term.segments.length !== 1 || text === undefined || text === '') return null;
  if (term.quote === 'double' && /[A-Za-z]/.test(text)) return null;
  for (const ch of text) if (!isTokenChar(ch.codePointAt(0) as number)) return null;
  return text;
}

interface Run {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

// Runs of token characters (D9): ASCII letters, digits, `_`, and non-ASCII.
function splitRuns(text: string): Run[] {
  const runs: Run[] = [];
  const pattern = /[A-Za-z0-9_\u0080-\uffff]+/g;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    runs.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  }
  return runs;
}
