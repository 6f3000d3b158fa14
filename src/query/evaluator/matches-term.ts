/**
 * The term matcher of docs "How a term matches a value" (D9–D14), written as directly as
 * possible so it can serve as an independent oracle for the compiler's regular expressions:
 * values and terms are arrays of code points, a wildcard term is simulated as a small automaton,
 * and "contains" tries every start position.
 */
import { exactNumber } from '../decimal-value.js';
import type { Value } from '../ast.js';
import { valueText } from './value-text.js';

/** Token characters (D9): ASCII letters, digits, `_` and every non-ASCII character. */
export function isTokenChar(codePoint: number): boolean {
  return (
    (codePoint >= 0x30 && codePoint <= 0x39) || // 0-9
    (codePoint >= 0x41 && codePoint <= 0x5a) || // A-Z
    (codePoint >= 0x61 && codePoint <= 0x7a) || // a-z
    codePoint === 0x5f || // _
    codePoint > 0x7f
  );
}

/** A term that is only wildcards (`*`, `**`): "exists" after a column, "every event" as free text (D12). */
export function isWildcardOnly(value: Value): boolean {
  return value.kind === 'string' && value.segments.length >= 2 && value.segments.every((s) => s === '');
}

/**
 * Whether `value` matches `term`: `contains` is the `:` and free-text rule, `whole` the `=` rule.
 * A number term also matches a number value equal to it, besides matching its text.
 */
export function matchesTerm(value: string | number, term: Value, mode: 'contains' | 'whole'): boolean {
  if (term.kind === 'number' && typeof value === 'number' && value === exactNumber(term.text)) return true;
  const pieces = term.kind === 'number' ? [term.text] : term.segments;
  // Bare and single-quoted terms ignore ASCII letter case; numbers are bare (D10).
  const ignoreCase = term.kind === 'number' || term.quote !== 'double';
  const text = codePoints(valueText(value));
  const pattern = toPattern(pieces, ignoreCase);
  if (mode === 'whole') return matchEnds(text, 0, pattern).includes(text.length);
  // The empty term matches only the empty value (an empty piece would otherwise match anywhere).
  if (pieces.length === 1 && pieces[0] === '') return text.length === 0;
  const anchorStart = (pieces[0] ?? '') !== '';
  const anchorEnd = (pieces[pieces.length - 1] ?? '') !== '';
  for (let start = 0; start <= text.length; start++) {
    if (anchorStart && !isTokenBoundary(text, start)) continue;
    for (const end of matchEnds(text, start, pattern)) {
      if (!anchorEnd || isTokenBoundary(text, end)) return true;
    }
  }
  return false;
}

/** A position is a token boundary at either end of the value or next to a separator. */
function isTokenBoundary(text: readonly number[], position: number): boolean {
  if (position === 0 || position === text.length) return true;
  return !isTokenChar(text[position - 1] ?? 0) || !isTokenChar(text[position] ?? 0);
}

function codePoints(s: string): number[] {
  return Array.from(s, (c) => c.codePointAt(0) ?? 0);
}

// Only A-Z fold; every other character, non-ASCII letters included, compares exactly (D10).
function foldAscii(codePoint: number): number {
  return codePoint >= 0x41 && codePoint <= 0x5a ? codePoint + 0x20 : codePoint;
}

/** One pattern element: a literal code point, or `star` for a wildcard. */
type PatternItem = { readonly star: true } | { readonly star: false; readonly codePoint: number; readonly ignoreCase: boolean };

function toPattern(pieces: readonly string[], ignoreCase: boolean): PatternItem[] {
  const pattern: PatternItem[] = [];
  pieces.forEach((piece, i) => {
    if (i > 0) pattern.push({ star: true });
    for (const codePoint of codePoints(piece)) pattern.push({ star: false, codePoint, ignoreCase });
  });
  return pattern;
}

function itemMatches(item: PatternItem, codePoint: number): boolean {
  if (item.star) return true;
  return item.ignoreCase ? foldAscii(item.codePoint) === foldAscii(codePoint) : item.codePoint === codePoint;
}

/**
 * Every `end` such that text[start, end) matches the whole pattern, found by simulating the
 * pattern as an automaton: state j means "the first j pattern items are matched".
 */
function matchEnds(text: readonly number[], start: number, pattern: readonly PatternItem[]): number[] {
  const done = pattern.length;
  let states = skipStars(new Set([0]), pattern);
  const ends: number[] = states.has(done) ? [start] : [];
  for (let i = start; i < text.length && states.size > 0; i++) {
    const codePoint = text[i] ?? 0;
    const next = new Set<number>();
    for (const j of states) {
      const item = pattern[j];
      if (item === undefined) continue; // already complete, cannot take more characters
      if (item.star)
        next.add(j); // a wildcard swallows this character and stays
      else if (itemMatches(item, codePoint)) next.add(j + 1);
    }
    states = skipStars(next, pattern);
    if (states.has(done)) ends.push(i + 1);
  }
  return ends;
}

/** Adds, for each state before a wildcard, the state after it (the wildcard matching nothing). */
function skipStars(states: Set<number>, pattern: readonly PatternItem[]): Set<number> {
  const out = new Set(states);
  for (let j = 0; j < pattern.length; j++) {
    if (out.has(j) && pattern[j]?.star === true) out.add(j + 1);
  }
  return out;
}
