/**
 * Golden files under testdata/parser/: a description, `-- query --` (or `-- scalar --` for a
 * standalone expression) and then either `-- ast --` and `-- print --` or `-- error --` (every
 * diagnostic as `formatDiagnostic` renders it). `UPDATE_GOLDEN=1 npx vitest run
 * src/query/parser-golden.test.ts` rewrites the expected sections; review the diff by eye.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../format-diagnostic.js';
import { parseQuery, parseScalar } from './parser.js';
import { printQuery, printScalar } from '../printer.js';
import { stripSpans } from '../strip-spans.js';
import { renderTree } from '../render-tree.js';
import type { QueryDiagnostic } from '../syntax-diagnostic.js';

const root = fileURLToPath(new URL('../../../testdata/parser/', import.meta.url));
const update = process.env.UPDATE_GOLDEN === '1';

function goldenFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return goldenFiles(path);
    return entry.name.endsWith('.txt') ? [path] : [];
  });
}

interface Golden {
  readonly description: string;
  readonly input: 'query' | 'scalar';
  readonly text: string;
}

function readGolden(content: string, file: string): Golden {
  const match = /^([\s\S]*?)-- (query|scalar) --\n([\s\S]*?)\n(?=-- \w+ --\n|$)/.exec(content);
  if (!match) throw new Error(`${file}: no '-- query --' or '-- scalar --' section`);
  return { description: match[1] ?? '', input: match[2] as 'query' | 'scalar', text: match[3] ?? '' };
}

/** The expected sections for the input, and a round-trip failure message if printing is lossy. */
function render(golden: Golden): { sections: string; roundTrip: string | null } {
  const errors = (diagnostics: readonly QueryDiagnostic[]): string => `-- error --\n${diagnostics.map((d) => formatDiagnostic(golden.text, d)).join('\n\n')}\n`;
  if (golden.input === 'scalar') {
    const { expr, diagnostics } = parseScalar(golden.text);
    if (!expr) return { sections: errors(diagnostics), roundTrip: null };
    const printed = printScalar(expr);
    const again = parseScalar(printed).expr;
    const same = JSON.stringify(stripSpans(again)) === JSON.stringify(stripSpans(expr));
    return { sections: `-- ast --\n${renderTree(stripSpans(expr))}\n-- print --\n${printed}\n`, roundTrip: same ? null : printed };
  }
  const { query, diagnostics } = parseQuery(golden.text);
  if (!query) return { sections: errors(diagnostics), roundTrip: null };
  const printed = printQuery(query);
  const again = parseQuery(printed).query;
  const same = JSON.stringify(stripSpans(again)) === JSON.stringify(stripSpans(query));
  return { sections: `-- ast --\n${renderTree(stripSpans(query))}\n-- print --\n${printed}\n`, roundTrip: same ? null : printed };
}

describe('parser golden files', () => {
  const files = goldenFiles(root).sort();

  it('exist', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    it(relative(root, file), () => {
      const content = readFileSync(file, 'utf8');
      const golden = readGolden(content, file);
      const { sections, roundTrip } = render(golden);
      expect(roundTrip, 'the printed text parses back to the same tree').toBeNull();
      const actual = `${golden.description}-- ${golden.input} --\n${golden.text}\n${sections}`;
      if (update && actual !== content) writeFileSync(file, actual);
      else expect(content).toBe(actual);
    });
  }
});
