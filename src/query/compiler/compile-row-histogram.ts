/**
 * Counts a query's rows per time bucket in one statement: the search page's histogram and the
 * rule preview's per-minute counts. What is counted is the rows of the query's row-wise part
 * (its filter, then its `where`, `eval`, `rename`, `table`, `lookup` up to the first other
 * command): the result rows of a query that has no other command, else the events its first
 * aggregation, `head` or `tail` takes (those commands' rows have no time of their own).
 */
import { sqlInteger } from '../../core/index.js';
import type { AnalyzedQuery } from '../analyzer/analyze-query.js';
import { compileStages, querySettings } from './compile-query.js';
import { rowWisePrefix } from './compile-windowed-query.js';
import { fromClause } from './stage-input.js';

export interface RowHistogramOptions {
  readonly tenant: string;
  /** Rows with a time in `[startNs, endNs)` are counted. */
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** The start of bucket 0, at or before `startNs`; bucket i covers `[firstBucketNs + i·bucketNs, … + bucketNs)`. */
  readonly firstBucketNs: bigint;
  readonly bucketNs: bigint;
  /** Also prefilter by parts of words (CompileOptions.partialWords): for ranges holding many events. */
  readonly partialWords?: boolean;
}

export interface CompiledRowHistogram {
  /** Rows `{bucket, rows}`: the bucket's index from `firstBucketNs` and its row count; only non-empty buckets, in order. */
  readonly sql: string;
  readonly settings: Readonly<Record<string, number>>;
  /** Whether the query's own rows are counted (true), or the events its first aggregation, `head` or `tail` takes. */
  readonly countsResultRows: boolean;
}

/** Compiles the per-bucket row count of a checked query over a range. */
export function compileRowHistogram(analyzed: AnalyzedQuery, options: RowHistogramOptions): CompiledRowHistogram {
  // eslint-disable-next-line no-restricted-syntax -- internal invariant: the caller sizes the buckets
  if (options.bucketNs <= 0n || options.firstBucketNs > options.startNs) throw new Error('a histogram needs positive buckets starting at or before the range');
  const prefix = rowWisePrefix(analyzed.query.pipeline);
  const countsResultRows = prefix.length === analyzed.query.pipeline.length;
  const { input, env } = compileStages(analyzed, options, prefix);
  // Every row of a sliceable query is an event; after `table` its time is the stage's order column.
  const ts = env.mode === 'events' ? 'ts' : (env.order[0] as string);
  // Int128: the offset from a first bucket in 1900 to an event in 2262 overflows Int64.
  const bucket = `intDiv(toInt128(toUnixTimestamp64Nano(${ts})) - ${sqlInteger(options.firstBucketNs)}, ${sqlInteger(options.bucketNs)})`;
  return {
    sql: `SELECT toString(${bucket}) AS bucket, count() AS rows FROM ${fromClause(input)} GROUP BY bucket ORDER BY toInt128(bucket)`,
    settings: querySettings,
    countsResultRows,
  };
}
