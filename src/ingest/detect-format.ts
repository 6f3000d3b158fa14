import { isJsonObject, parseJsonText } from './parse-json-text.js';

/**
 * What the first non-blank line says about the input in `auto` mode:
 * - `ndjson`: a `{` line that parses, or fails in the middle (a bad NDJSON line, reported as such);
 * - `json-document`: a `[` line that parses or is cut short (a JSON array, one line or many);
 * - `undecided`: a `{` line cut short: a pretty-printed document, or NDJSON whose first line is
 *   truncated; the next non-blank line decides (see `secondLineIsEvent`);
 * - `text`: anything else, including `[` lines that are not JSON (`[Sun Dec 04 ...] [error]`).
 */
export type FirstLineVerdict = 'ndjson' | 'json-document' | 'undecided' | 'text';

/** Classifies the first non-blank line of the decoded input. */
export function classifyFirstLine(line: string): FirstLineVerdict {
  const c = line.charCodeAt(firstNonSpace(line));
  if (c === 123) {
    const result = parseJsonText(line);
    return result.ok || !result.atEnd ? 'ndjson' : 'undecided';
  }
  if (c === 91) {
    const result = parseJsonText(line);
    return result.ok || result.atEnd ? 'json-document' : 'text';
  }
  return 'text';
}

/**
 * After an undecided first line: true when the second non-blank line is a whole JSON object by
 * itself, i.e. the input is NDJSON with a broken first line. A pretty-printed document's second
 * line (`"Records": [`, `  "eventVersion": "1.08",`) never is, short of a one-element array
 * written with its element on one line, which then still ingests that element.
 */
export function secondLineIsEvent(line: string): boolean {
  const result = parseJsonText(line);
  return result.ok && isJsonObject(result.value);
}

/** Index of the first character that is not JSON whitespace (the length when there is none). */
export function firstNonSpace(line: string): number {
  let i = 0;
  for (;;) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) return Number.isNaN(c) ? line.length : i;
    i++;
  }
}

/** True for a line with nothing but spaces and tabs: skipped, never an error. */
export function isBlankLine(line: string): boolean {
  return firstNonSpace(line) === line.length;
}
