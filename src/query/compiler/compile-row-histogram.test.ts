/**
 * Golden SQL of per-bucket row counts: each testdata/row-histogram/*.txt holds a description,
 * `-- query --`, and the expected `-- sql --` (or `-- error --`), compiled over the golden tenant
 * and range with 5-minute buckets from 00:00 of the range's first day. Refresh with
 * UPDATE_GOLDEN=1 and review the diff.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeQuery, compileRowHistogram, formatDiagnostic, parseQuery } from '../index.js';
import { goldenContext, goldenOptions } from './testing/golden-context.js';
import { readGolden } from './testing/golden-file.js';
import { prettySql } from './pretty-sql.js';

const dir = new URL('../../../testdata/row-histogram/', import.meta.url).pathname;
const update = process.env.UPDATE_GOLDEN === '1';
const options = { ...goldenOptions, firstBucketNs: goldenOptions.startNs - 60_000_000_000n, bucketNs: 300_000_000_000n };

function render(query: string): string {
  const parsed = parseQuery(query);
  if (parsed.query === null) return `-- error --\n${parsed.diagnostics.map((d) => formatDiagnostic(query, d)).join('\n')}\n`;
  const analysis = analyzeQuery(parsed.query, goldenContext);
  if (analysis.analyzed === null) return `-- error --\n${analysis.diagnostics.map((d) => formatDiagnostic(query, d)).join('\n')}\n`;
  const compiled = compileRowHistogram(analysis.analyzed, options);
  return `-- sql --\n${prettySql(compiled.sql)}\n-- counts --\n${compiled.countsResultRows ? 'result rows' : 'rows the first aggregation, head or tail takes'}\n`;
}

describe('row histogram golden files', () => {
  it.each(readdirSync(dir).filter((f) => f.endsWith('.txt')).sort())('%s', (file) => {
    const path = join(dir, file);
    const golden = readGolden(readFileSync(path, 'utf8'));
    const actual = render(golden.query);
    if (update) writeFileSync(path, `${golden.description}-- query --\n${golden.query}\n${actual}`);
    else expect(actual).toBe(golden.expected);
  });

  it('refuses a first bucket after the range start, and empty buckets', async () => {
    const analyzed = analyzeQuery(parseQuery('x').query!, goldenContext).analyzed!;
    expect(() => compileRowHistogram(analyzed, { ...options, firstBucketNs: options.startNs + 1n })).toThrow(/at or before/);
    expect(() => compileRowHistogram(analyzed, { ...options, bucketNs: 0n })).toThrow(/positive/);
  });
});
