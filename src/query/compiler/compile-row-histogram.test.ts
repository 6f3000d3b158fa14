/**
 * Golden SQL of per-bucket row counts: each testdata/row-histogram/*.txt holds a description,
 * `-- query --`, and the expected `-- sql --` (or `-- error --`), compiled over the golden tenant
 * and range with 5-minute buckets from 00:00 of the range's first day. Refresh with
 * UPDATE_GOLDEN=1 and review the diff.
 */
import { describe, expect, it } from 'vitest';
import { analyzeQuery, compileRowHistogram, parseQuery } from '../index.js';
import { goldenContext, goldenOptions } from './testing/golden-context.js';
import { compiledOrErrors, itMatchesGoldenFiles } from './testing/golden-file.js';
import { prettySql } from './pretty-sql.js';

const dir = new URL('../../../testdata/row-histogram/', import.meta.url).pathname;
const options = { ...goldenOptions, firstBucketNs: goldenOptions.startNs - 60_000_000_000n, bucketNs: 300_000_000_000n };

function render(query: string): string {
  return compiledOrErrors(query, goldenContext, (analyzed) => {
    const compiled = compileRowHistogram(analyzed, options);
    return `-- sql --\n${prettySql(compiled.sql)}\n-- counts --\n${compiled.countsResultRows ? 'result rows' : 'rows the first aggregation, head or tail takes'}\n`;
  });
}

describe('row histogram golden files', () => {
  itMatchesGoldenFiles(dir, render);

  it('refuses a first bucket after the range start, and empty buckets', async () => {
    const analyzed = analyzeQuery(parseQuery('x').query!, goldenContext).analyzed!;
    expect(() => compileRowHistogram(analyzed, { ...options, firstBucketNs: options.startNs + 1n })).toThrow(/at or before/);
    expect(() => compileRowHistogram(analyzed, { ...options, bucketNs: 0n })).toThrow(/positive/);
  });
});
