import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { analyzeQuery, withStoredLayout, type AnalysisContext, type AnalyzedQuery } from '../../analyzer/analyze-query.js';
import { formatDiagnostic } from '../../format-diagnostic.js';
import { parseQuery } from '../../parser/parser.js';
import { goldenStoredLayout } from './golden-context.js';

/** A golden file: a description, `-- query --` and the query, then the expected `-- sql --` (and more) or `-- error --`. */
export interface Golden {
  readonly description: string;
  readonly query: string;
  readonly expected: string;
}

/** Splits a golden file's text into its parts. */
export function readGolden(text: string): Golden {
  const queryAt = text.indexOf('-- query --\n');
  const resultAt = text.search(/\n-- (sql|error) --\n/);
  if (queryAt === -1) throw new Error('golden file without -- query --');
  const end = resultAt === -1 ? text.length : resultAt;
  return {
    description: text.slice(0, queryAt),
    query: text.slice(queryAt + '-- query --\n'.length, end).replace(/\n$/, ''),
    expected: resultAt === -1 ? '' : text.slice(resultAt + 1),
  };
}

/** What a compiler makes of a query (reading stored columns as `goldenStoredLayout` places them), or its problems as `-- error --` with carets. */
export function compiledOrErrors(query: string, context: AnalysisContext, compile: (analyzed: AnalyzedQuery) => string): string {
  const parsed = parseQuery(query);
  if (parsed.query === null) return `-- error --\n${parsed.diagnostics.map((d) => formatDiagnostic(query, d)).join('\n')}\n`;
  const analysis = analyzeQuery(parsed.query, context);
  if (analysis.analyzed === null) return `-- error --\n${analysis.diagnostics.map((d) => formatDiagnostic(query, d)).join('\n')}\n`;
  return compile(withStoredLayout(analysis.analyzed, goldenStoredLayout));
}

/** One test per golden file of `dir`: `render` of its query must equal its expected part (rewritten with UPDATE_GOLDEN=1). */
export function itMatchesGoldenFiles(dir: string, render: (query: string, file: string) => string): void {
  const update = process.env.UPDATE_GOLDEN === '1';
  it.each(
    readdirSync(dir)
      .filter((f) => f.endsWith('.txt'))
      .sort(),
  )('%s', (file) => {
    const path = join(dir, file);
    const golden = readGolden(readFileSync(path, 'utf8'));
    const actual = render(golden.query, file);
    if (update) writeFileSync(path, `${golden.description}-- query --\n${golden.query}\n${actual}`);
    else expect(actual).toBe(golden.expected);
  });
}
