/**
 * Every `query_text` of the public Scanner detection-rule packs (/work/shared/datasets/
 * scanner-rules, outside the repository) parses, and prints to text that parses back to the
 * same tree, and analyzes and compiles against indexes created for the test, except the few the
 * analyzer refuses for a reason listed below.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseQuery } from './parser/parser.js';
import { printQuery } from './printer.js';
import { stripSpans } from './strip-spans.js';
import { analyzeQuery, type IndexInfo } from './analyzer/analyze-query.js';
import { compileQuery } from './compiler/compile-query.js';
import type { Query } from './ast.js';
import { indexTargetsOf } from './index-filters.js';

function indexesNamedIn(query: Query): IndexInfo[] {
  return indexTargetsOf(query).map((t) => {
    const name = t.name ?? `index-${t.id ?? ''}`;
    return { id: t.id ?? `id-${name}`, name, system: name.startsWith('_') };
  });
}

const root = fileURLToPath(new URL('../../../shared/datasets/scanner-rules', import.meta.url));

/**
 * Rules the analyzer refuses, with the reason. Each is a bug in the public rule: `countdistinct`
 * produces `@q.uniq`, so `where @q.count > 1` refers to a column that does not exist and the
 * rule could never fire. docs/query-language.md lists them.
 */
const wrongColumn = "column '@q.count' does not exist after 'countdistinct' (columns: @q.uniq)";
const knownAnalysisFailures: Readonly<Record<string, string>> = {
  'detection-rules-cisco-duo/rules/cisco_duo_login_failures_from_different_users.yml': wrongColumn,
  'detection-rules-cisco-duo/rules/cisco_duo_multiple_users_deleted.yml': wrongColumn,
  'detection-rules-sentinelone/rules/sentinelone_agent_uninstalled.yml': wrongColumn,
};

function ruleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ruleFiles(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

function queryText(file: string): string | null {
  const rule: unknown = parseYaml(readFileSync(file, 'utf8'));
  const text = rule !== null && typeof rule === 'object' ? (rule as { query_text?: unknown }).query_text : undefined;
  return typeof text === 'string' ? text : null;
}

const suite = existsSync(root) ? describe : describe.skip;

suite(`Scanner rule packs (${existsSync(root) ? root : 'directory missing, skipped'})`, () => {
  const files = existsSync(root) ? ruleFiles(root).sort() : [];

  it('are all there', () => {
    expect(files.length).toBeGreaterThan(300);
  });

  for (const file of files) {
    const name = relative(root, file);
    const refused = knownAnalysisFailures[name];
    it(`${name} parses, round-trips, ${refused ? 'and is refused by the analyzer' : 'analyzes and compiles'}`, () => {
      const text = queryText(file);
      expect(text, 'the rule has a query_text').not.toBeNull();
      const { query, diagnostics } = parseQuery(text ?? '');
      expect(diagnostics).toEqual([]);
      if (!query) return;
      const again = parseQuery(printQuery(query)).query;
      expect(again && stripSpans(again)).toEqual(stripSpans(query));
      // The indexes a rule names are created for the test, as a user would before syncing.
      const analysis = analyzeQuery(query, { indexes: indexesNamedIn(query), fieldPaths: [] });
      if (refused) {
        expect(analysis.diagnostics.map((d) => d.message)).toEqual([refused]);
        return;
      }
      expect(analysis.diagnostics).toEqual([]);
      if (!analysis.analyzed) return;
      const compiled = compileQuery(analysis.analyzed, { tenant: 't', startNs: 0n, endNs: 1n });
      expect(compiled.sql).toMatch(/^SELECT /);
    });
  }
});
