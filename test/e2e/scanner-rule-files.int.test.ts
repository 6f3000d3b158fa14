/**
 * The 339 public Scanner rule files (../shared/datasets/scanner-rules, not in the repository for
 * their licence) through `vigil rules validate` and `vigil rules test`, offline, as a user runs
 * them: every file is valid or refused for the reason docs/rule-files.md gives, and every inline
 * test passes on the real engine (one temporary engine for the whole run).
 */
import { describe, expect, it } from 'vitest';
import { runVigil } from '../../src/cli/testing/run-vigil.js';
import { knownInvalidScannerRules, scannerRuleFiles, scannerRulesNote, scannerRulesRoot } from '../../src/detections/rule-file/testing/scanner-rule-files.js';
import { openScratchEngine } from '../../src/runtime.js';

const vigil = (argv: string[]) => runVigil(argv, { openScratchEngine });

interface JsonFile {
  status: string;
  file_path: string;
  error?: string;
  tests?: { name: string; status: string }[];
}

const files = scannerRuleFiles();
const relativePath = (path: string) => path.slice(scannerRulesRoot.length + 1);

describe.skipIf(files.length === 0)(`vigil rules validate|test over the public rule packs (${scannerRulesNote})`, () => {
  it('finds the 339 files', () => {
    expect(files).toHaveLength(339);
  });

  it('validates every file but the ones documented as refused, each for its reason', async () => {
    const { status, out } = await vigil(['rules', 'validate', '-d', scannerRulesRoot, '-r', '--json']);
    expect(status).toBe(1);
    const reported = (JSON.parse(out) as { files: JsonFile[] }).files;
    expect(reported).toHaveLength(files.length);
    const invalid = Object.fromEntries(reported.filter((f) => f.status !== 'Valid').map((f) => [relativePath(f.file_path), `${f.status}: ${f.error}`]));
    expect(invalid).toEqual(Object.fromEntries(Object.entries(knownInvalidScannerRules).map(([path, error]) => [path, `Invalid: ${error}`])));
  });

  it('passes every inline test of every valid file', async () => {
    const { out } = await vigil(['rules', 'test', '-d', scannerRulesRoot, '-r', '--json']);
    const reported = (JSON.parse(out) as { files: JsonFile[] }).files;
    const notPassed = reported.filter((f) => f.status !== 'Passed').map((f) => relativePath(f.file_path));
    expect(notPassed.sort()).toEqual(Object.keys(knownInvalidScannerRules).sort());
    const tests = reported.flatMap((f) => (f.tests ?? []).map((t) => `${relativePath(f.file_path)}: ${t.name}: ${t.status}`));
    expect(tests).toHaveLength(20);
    expect(tests.filter((t) => !t.endsWith(': Passed'))).toEqual([]);
  });
});
