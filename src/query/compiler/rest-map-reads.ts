/**
 * Tests on a column whose values a rest map holds (`rest_s['p']`, `rest_n['p']`; docs/engine.md,
 * "The rest maps"). Such a test holds on a value only, never where the column is missing.
 *
 * - A statement tests each row's value behind a null check on what the test reads, and asks no
 *   text index. Merged parts keep the maps in 16 buckets by key hash, so reading the column's
 *   bucket for every row in range costs less than the indexes' lookups (`has(field_paths, …)`
 *   and the word index), which ClickHouse answers per row as well: over 5 M mixed events,
 *   `CommandLine: powershell` took 55 ms instead of 127 and `query == 'gummybacon'` 30 instead
 *   of 75 (docs/benchmarks-journal.md, "Rest-map columns behind a null check"). The null check
 *   keeps the exact test, often an RE2 match, off the rows without the column. A test of one of
 *   several columns a wildcard name stands for keeps the lookups (`onValues` in compile-filter.ts).
 * - A prefilter (`FilterContext.prefilterOnly`) still names the `field_paths` lookup: it has to
 *   be a condition the text index answers.
 */
import { nullNumber, nullString, type SqlValue } from './sql-value.js';

/** Which parts of a value a test reads: its strings, its numbers, or both. */
export interface ReadParts {
  readonly strings: boolean;
  readonly numbers: boolean;
}

/** Whether the test reads a part of `value` that a rest map holds. */
function readsRestMap(value: SqlValue, reads: ReadParts): boolean {
  const present = value.present;
  return present !== undefined && ((reads.strings && present.strings) || (reads.numbers && present.numbers));
}

/** The `field_paths` lookup a prefilter puts before a test of `value`, when it reads a rest map. */
export function presenceLookup(value: SqlValue, reads: ReadParts): string | undefined {
  return readsRestMap(value, reads) ? value.present?.lookup : undefined;
}

/**
 * The null check a statement puts before a test of `value`, when it reads a rest map: true where
 * a part the test reads holds a value (a test of a missing value never holds, so it is implied).
 */
export function nullCheck(value: SqlValue, reads: ReadParts): string | undefined {
  if (!readsRestMap(value, reads)) return undefined;
  const parts = [...(reads.strings ? [value.s] : []), ...(reads.numbers ? [value.n] : [])].filter((part) => part !== nullString && part !== nullNumber);
  const checks = parts.map((part) => `isNotNull(${part})`);
  if (checks.length === 0) return undefined;
  return checks.length === 1 ? checks[0] : `(${checks.join(' OR ')})`;
}
