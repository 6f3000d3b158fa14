/**
 * Golden SQL of one statement over a series of windows (rule preview): each
 * testdata/windowed/*.txt holds a description, `-- query --`, and the expected `-- sql --` (or
 * `-- error --`), compiled for ten 5-minute windows a minute apart over the golden tenant.
 * Refresh with UPDATE_GOLDEN=1 and review the diff. Whether each window's rows equal the query
 * alone over that window is checked on the engine (src/search/rule-windows.int.test.ts).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeQuery, compileWindowedQuery, formatDiagnostic, parseQuery } from '../index.js';
import { goldenContext, goldenOptions } from './testing/golden-context.js';
import { readGolden } from './testing/golden-file.js';
import { prettySql } from './pretty-sql.js';

const dir = new URL('../../../testdata/windowed/', import.meta.url).pathname;
const update = process.env.UPDATE_GOLDEN === '1';
const minuteNs = 60_000_000_000n;
const windows = { firstEndNs: goldenOptions.startNs + 5n * minuteNs, frequencyNs: minuteNs, rangeNs: 5n * minuteNs, count: 10 };

function render(query: string): string {
  const parsed = parseQuery(query);
  if (parsed.query === null) return `-- error --\n${parsed.diagnostics.map((d) => formatDiagnostic(query, d)).join('\n')}\n`;
  const analysis = analyzeQuery(parsed.query, goldenContext);
  if (analysis.analyzed === null) return `-- error --\n${analysis.diagnostics.map((d) => formatDiagnostic(query, d)).join('\n')}\n`;
  const compiled = compileWindowedQuery(analysis.analyzed, { tenant: goldenOptions.tenant, windows, limit: 100 });
  return compiled === null ? '-- sql --\n(none: every command is row-wise, the windows read events)\n' : `-- sql --\n${prettySql(compiled.sql)}\n`;
}

describe('windowed query golden files', () => {
  it.each(readdirSync(dir).filter((f) => f.endsWith('.txt')).sort())('%s', (file) => {
    const path = join(dir, file);
    const golden = readGolden(readFileSync(path, 'utf8'));
    const actual = render(golden.query);
    if (update) writeFileSync(path, `${golden.description}-- query --\n${golden.query}\n${actual}`);
    else expect(actual).toBe(golden.expected);
  });

  it('refuses windows shorter than their spacing', () => {
    const analyzed = analyzeQuery(parseQuery('x | count').query!, goldenContext).analyzed!;
    expect(() => compileWindowedQuery(analyzed, { tenant: 'acme', windows: { ...windows, rangeNs: 30_000_000_000n } })).toThrow(/at least as long/);
  });
});
