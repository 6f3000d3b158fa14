/**
 * Golden SQL: each testdata/compiler/*.txt holds a description, `-- query --`, and the expected
 * `-- sql --` and `-- plan --` (or `-- error --`). Refresh with UPDATE_GOLDEN=1 and review the diff.
 * Files in testdata/compiler/typed compile with the field catalog's types known (typedGoldenContext);
 * those in testdata/compiler/unbounded without the time range (`timeBounded: false`), those in
 * testdata/compiler/partial-words with parts of words looked up (`partialWords: true`).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileQuery, type CompileOptions, type PredicatePlan } from '../index.js';
import { goldenContext, goldenOptions, typedGoldenContext } from './testing/golden-context.js';
import type { AnalysisContext } from '../analyzer/analyze-query.js';
import { prettySql } from './pretty-sql.js';
import { compiledOrErrors, readGolden } from './testing/golden-file.js';

const dir = new URL('../../../testdata/compiler/', import.meta.url).pathname;
const update = process.env.UPDATE_GOLDEN === '1';
const planLabel = (p: PredicatePlan): string =>
  p.index === 'answers'
    ? 'search_words alone'
    : p.index === 'none'
      ? 'exact only'
      : p.index === 'null-check'
        ? 'null check, then exact'
        : `${(p.prefilters ?? []).join(' and ')}, then exact`;

/** What the compiler makes of a query, in golden-file form. */
export function render(query: string, context: AnalysisContext = goldenContext, options = goldenOptions): string {
  return compiledOrErrors(query, context, (analyzed) => {
    const compiled = compileQuery(analyzed, options);
    const plan = compiled.plans.map((p) => `${p.source}  →  ${planLabel(p)}`);
    return `-- sql --\n${prettySql(compiled.sql)}\n-- plan --\n${plan.join('\n')}\n`;
  });
}

const goldenFiles = (sub: string): string[] =>
  readdirSync(join(dir, sub))
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => (sub === '.' ? f : join(sub, f)));
const files = [...goldenFiles('.'), ...goldenFiles('typed'), ...goldenFiles('unbounded'), ...goldenFiles('partial-words')];
const subdirOptions: Record<string, CompileOptions> = { unbounded: { ...goldenOptions, timeBounded: false }, 'partial-words': { ...goldenOptions, partialWords: true } };

describe('compiler golden files', () => {
  it.each(files)('%s', (file) => {
    const path = join(dir, file);
    const golden = readGolden(readFileSync(path, 'utf8'));
    const context = file.startsWith('typed/') ? typedGoldenContext : goldenContext;
    const actual = render(golden.query, context, subdirOptions[file.split('/')[0] as string] ?? goldenOptions);
    if (update) writeFileSync(path, `${golden.description}-- query --\n${golden.query}\n${actual}`);
    else expect(actual).toBe(golden.expected);
  });
});
