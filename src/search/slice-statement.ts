/**
 * How a slice statement of an event search is run, from what the slice is expected to hold:
 * engine features that cost a fixed amount per statement, or that only pay once a statement's
 * limit is full, are used only where they pay (docs/search.md, step 3).
 */

/** Engine settings one statement runs with, beside the compiled ones. */
export type StatementSettings = Readonly<Record<string, string | number>>;

/** A slice statement's engine settings, and whether it prefilters by parts of words. */
export interface SliceStatement {
  readonly settings: StatementSettings;
  readonly partialWords: boolean;
}

/**
 * Events a slice must cover for a lookup of parts of words (`*mimikatz*`) to pay: the word
 * index scans its dictionary, about 20 ms per merged weekly part, while the exact pattern reads
 * about a million events a second (a week: 23 ms against 1.2 s; an hour: 23 ms against 33 ms).
 * The index then answers the lookup row by row, so the pattern runs only on the events that hold
 * the part, which pays even for a common part (`*indows*`, 965 events: 120 ms against 185 ms).
 */
export const partialWordsMinRows = 20_000;

// The engine's top-K filtering (on by default) moves a statement's filter out of PREWHERE, so
// every column is read for every candidate row, for a threshold that only prunes once the limit
// is full. `CommandLine: powershell`, 348 matches in 2.5 M candidate rows: 89 ms without it,
// 116 ms with it (docs/benchmarks-journal.md).
const withoutTopKFilter: StatementSettings = { use_top_k_dynamic_filtering: 0 };

/**
 * A statement over a slice of `sliceRows` events that returns at most `limit` rows, where
 * `expected` matches are expected at the density found so far (null before anything is known).
 * One not expected to fill its limit runs without top-K filtering; one over enough events looks
 * up parts of words.
 */
export function sliceStatement(sliceRows: number, expected: number | null, limit: number): SliceStatement {
  const sparse = expected !== null && expected < limit;
  return { settings: sparse ? withoutTopKFilter : {}, partialWords: sliceRows >= partialWordsMinRows };
}
