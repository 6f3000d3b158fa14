import type { ColumnName, NamePart, StringValue, Value } from './ast.js';
import { isAggregationFunction } from './parser/parse-aggregation.js';
import {
  hasValidScalarNameMarks,
  isBareChar,
  isBareStart,
  isBooleanKeywordText,
  isPipelineKeywordText,
  isScalarLiteralText,
  isScalarNameChar,
  isScalarNameStart,
} from './lexical-rules.js';

/**
 * Where a name is printed, which decides whether it can go bare: in a filter `and`, `or`, `not`
 * are reserved; in pipeline commands also `by` and `as`, and in a `stats` item list the
 * aggregation names too (a bare `max` there would read as a call); expressions allow fewer
 * characters (6.3) and reserve `true`, `false`, `null`.
 */
export type NameContext = 'filter' | 'pipeline' | 'statsItem' | 'scalar';

/** A value as query text: as quoted as written; a bare value that cannot be bare gets `'...'`. */
export function printValue(value: Value): string {
  if (value.kind === 'number') return value.text;
  return printString(value);
}

function printString(value: StringValue): string {
  if (value.quote === 'bare' && canPrintBareValue(value.segments)) return value.segments.map(escapeBare).join('*');
  const quote = value.quote === 'double' ? '"' : "'";
  return quote + value.segments.map((s) => escapeQuoted(s, quote)).join('*') + quote;
}

/** A plain text (an index name) as a bare value when it can be one, else double-quoted. */
export function printPlainText(text: string): string {
  return canPrintBareValue([text]) ? escapeBare(text) : printDoubleQuoted(text);
}

/** A string literal of a scalar expression: double quotes, and `*` is no wildcard there. */
export function printScalarString(text: string): string {
  return `"${escapeQuoted(text, '"', false)}"`;
}

/** A plain text (an index name in braces) in double quotes, a literal `*` escaped. */
export function printDoubleQuoted(text: string): string {
  return `"${escapeQuoted(text, '"')}"`;
}

/** Whether the segments read back the same when printed bare (2.1, D7, D8). */
export function canPrintBareValue(segments: readonly string[]): boolean {
  const text = segments.join('*');
  if (text === '' || (segments.length === 1 && isBooleanKeywordText(text))) return false;
  if (!startsBare(segments[0] ?? '', segments.length > 1) && !digitWord(segments)) return false;
  return segments.every((s, i) => [...s].every(isBareChar) && !(s.endsWith('\\') && i < segments.length - 1));
}

// Text that starts with a digit reads back as a bare word unless it is a whole number (D8).
const wholeNumber = /^\d+(\.\d+)?(e[+-]?\d+)?$/;
function digitWord(segments: readonly string[]): boolean {
  const first = segments[0] ?? '';
  return /^\d/.test(first) && !(segments.length === 1 && wholeNumber.test(first));
}

/** Whether a bare text starts well: with a bare start character, `\*`, or a wildcard. */
function startsBare(first: string, wildcardFollows: boolean): boolean {
  if (first === '') return wildcardFollows;
  const ch = String.fromCodePoint(first.codePointAt(0) ?? 0);
  return isBareStart(ch) || ch === '*';
}

/** A column name honouring how it was written: backticks stay, bare stays bare when it can. */
export function printColumn(column: ColumnName, context: NameContext): string {
  if (column.quote === 'bare' && canPrintBareName(column.parts, context)) return column.parts.map(printBarePart).join('');
  return '`' + column.parts.map(printQuotedPart).join('') + '`';
}

/** Whether the name parts read back the same when printed bare in `context`. */
export function canPrintBareName(parts: readonly NamePart[], context: NameContext): boolean {
  const first = parts[0];
  if (!first) return false;
  const single = parts.length === 1 && first.kind === 'text' ? first.text : null;
  if (single !== null && isReserved(single, context)) return false;
  if (context === 'scalar') return canPrintScalarName(parts);
  if (first.kind === 'text' && !startsBare(first.text, false) && !digitWord(parts.length === 1 ? [first.text] : [first.text, ''])) return false;
  return parts.every((part, i) => part.kind !== 'text' || ([...part.text].every(isBareChar) && !(part.text.endsWith('\\') && i < parts.length - 1)));
}

function isReserved(text: string, context: NameContext): boolean {
  switch (context) {
    case 'filter':
      return isBooleanKeywordText(text);
    case 'pipeline':
      return isPipelineKeywordText(text);
    case 'statsItem':
      return isPipelineKeywordText(text) || isAggregationFunction(text);
    case 'scalar':
      return isBooleanKeywordText(text) || isScalarLiteralText(text);
  }
}

/** Expression names: no escapes, so no literal `*`; a lone `*` would read as multiplication. */
function canPrintScalarName(parts: readonly NamePart[]): boolean {
  if (parts.some((p) => p.kind === 'text' && p.text.includes('*'))) return false;
  const text = parts.map(printBarePart).join('');
  if (text === '*' || !isScalarNameStart(text[0] ?? '')) return false;
  return [...text.slice(1)].every(isScalarNameChar) && hasValidScalarNameMarks(text);
}

function printBarePart(part: NamePart): string {
  switch (part.kind) {
    case 'text':
      return escapeBare(part.text);
    case 'star':
      return '*';
    case 'globstar':
      return '**';
  }
}

function printQuotedPart(part: NamePart): string {
  return part.kind === 'text' ? escapeQuoted(part.text, '`') : printBarePart(part);
}

/** In bare text only the asterisk has an escape (`\*`); other backslashes are themselves. */
function escapeBare(text: string): string {
  return text.replaceAll('*', '\\*');
}

function escapeQuoted(text: string, quote: string, escapeStar = true): string {
  let out = '';
  for (const ch of text) {
    if (ch === '\\' || ch === quote || (ch === '*' && escapeStar)) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch.charCodeAt(0) < 0x20 || ch === '\x7f') out += `\\u{${ch.charCodeAt(0).toString(16)}}`;
    else out += ch;
  }
  return out;
}
