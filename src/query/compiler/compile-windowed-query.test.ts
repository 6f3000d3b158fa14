/**
 * Golden SQL of one statement over a series of windows (rule preview): each
 * testdata/windowed/*.txt holds a description, `-- query --`, and the expected `-- sql --` (or
 * `-- error --`), compiled for ten 5-minute windows a minute apart over the golden tenant.
 * Refresh with UPDATE_GOLDEN=1 and review the diff. Whether each window's rows equal the query
 * alone over that window is checked on the engine (src/search/rule-windows.int.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { analyzeQuery, compileQuery, compileWindowedQuery, parseQuery } from '../index.js';
import { goldenContext, goldenOptions } from './testing/golden-context.js';
import { compiledOrErrors, itMatchesGoldenFiles } from './testing/golden-file.js';
import { prettySql } from './pretty-sql.js';

const dir = new URL('../../../testdata/windowed/', import.meta.url).pathname;
const minuteNs = 60_000_000_000n;
const windows = { firstEndNs: goldenOptions.startNs + 5n * minuteNs, frequencyNs: minuteNs, rangeNs: 5n * minuteNs, count: 10 };

function render(query: string): string {
  return compiledOrErrors(query, goldenContext, (analyzed) => {
    const compiled = compileWindowedQuery(analyzed, { tenant: goldenOptions.tenant, windows, limit: 100 });
    return compiled === null ? '-- sql --\n(none: every command is row-wise, the windows read events)\n' : `-- sql --\n${prettySql(compiled.sql)}\n`;
  });
}

describe('windowed query golden files', () => {
  itMatchesGoldenFiles(dir, render);

  it('refuses windows shorter than their spacing', () => {
    const analyzed = analyzeQuery(parseQuery('x | count').query!, goldenContext).analyzed!;
    expect(() => compileWindowedQuery(analyzed, { tenant: 'acme', windows: { ...windows, rangeNs: 30_000_000_000n } })).toThrow(/at least as long/);
  });

  it('gives its rows the identity the query alone gives them', () => {
    for (const text of ['x | groupbycount(user) | rename(user as who)', 'x | stats count() by user | table(@q.count)', 'x | count']) {
      const analyzed = analyzeQuery(parseQuery(text).query!, goldenContext).analyzed!;
      const alone = compileQuery(analyzed, goldenOptions);
      expect(compileWindowedQuery(analyzed, { tenant: goldenOptions.tenant, windows })!.output.identity).toEqual(alone.output.identity);
      expect(alone.output.identity.kind).not.toBe('event');
    }
  });
});
