import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChdbEngine } from '../../engine/chdb/index.js';
import { runVigil } from '../testing/run-vigil.js';

// `vigil rules validate|test` offline. chDB opens one data directory per process, so every
// `rules test` of this file shares one engine (the real command opens a temporary one).
const dir = mkdtempSync(join(tmpdir(), 'vigil-rule-files-cli-'));
let engine: ChdbEngine;
let opened = 0;

beforeAll(async () => {
  engine = new ChdbEngine({ path: join(dir, 'engine'), poolSize: 2 });
  await engine.init();
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const vigil = (argv: string[]) =>
  runVigil(argv, {
    openScratchEngine: async () => {
      opened++;
      return { engine, close: async () => {} };
    },
  });

const header = '# schema: https://scanner.dev/schema/scanner-detection-rule.v1.json';
const rule = (lines: string[] = []) =>
  [header, 'name: Login', 'description: d', 'query_text: "eventName: Login"', 'time_range_s: 300', 'run_frequency_s: 60', ...lines].join('\n') + '\n';
const test = (name: string, eventName: string, expected: boolean) => [
  `  - name: ${name}`,
  '    now_timestamp: "2026-05-15T00:03:00Z"',
  `    dataset_inline: '{"timestamp":"2026-05-15T00:02:30Z","eventName":"${eventName}"}'`,
  `    expected_detection_result: ${expected}`,
];

function write(path: string, text: string): string {
  const full = join(dir, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  return full;
}

const good = write('rules/good.yml', rule(['tests:', ...test('fires', 'Login', true), ...test('quiet', 'Logout', false)]));
const bad = write('rules/bad.yaml', rule(['severity: Severe', 'colour: red']));
const failing = write('rules/nested/failing.yml', rule(['tests:', ...test('expects a login', 'Logout', true)]));
write('rules/ci.yml', 'on: push\n');

describe('vigil rules validate', () => {
  it('prints <path>: OK or each error with its line and column; exit 0 only if all are valid', async () => {
    expect(await vigil(['rules', 'validate', '-f', good])).toEqual({ status: 0, out: `${good}: OK\n`, err: '' });
    const result = await vigil(['rules', 'validate', '-f', good, bad]);
    expect(result.status).toBe(1);
    expect(result.out).toBe(
      `${good}: OK\n` +
        `${bad}: severity must be one of Unknown, Informational, Low, Medium, High, Critical, Fatal, Other, Information, got "Severe" at 7:11\n` +
        '  warning: unknown field "colour" is ignored at 8:1\n',
    );
  });

  it('searches a directory for rule files, and subdirectories with -r, saying which YAML files it skipped and why', async () => {
    const flat = await vigil(['rules', 'validate', '-d', join(dir, 'rules'), '--json']);
    expect(JSON.parse(flat.out)).toEqual({
      files: [
        { status: 'Invalid', file_path: bad, error: expect.stringMatching(/^severity must be one of/), warning: 'unknown field "colour" is ignored at 8:1' },
        { status: 'Valid', file_path: good },
      ],
    });
    const deep = await vigil(['rules', 'validate', '-d', join(dir, 'rules'), '-r']);
    expect(
      deep.out
        .split('\n')
        .filter((line) => line.startsWith(dir))
        .map((line) => line.split(':')[0]),
    ).toEqual([bad, good, failing]);
    expect(deep.err).toBe(
      'skipped 1 YAML file that is not a rule file, as a repository sync would (name it with -f to check it):\n' +
        `  ${join(dir, 'rules/ci.yml')}: neither a "# schema:" first line nor a top-level query_text key\n`,
    );
  });

  it('in a directory, also takes a file without a schema header that has a top-level query_text, as a sync does', async () => {
    const noHeader = write('bare/noheader.yml', 'name: no header\ndescription: d\nquery_text: "a | |"\ntime_range_s: 60\nrun_frequency_s: 60\n');
    write('bare/.github/workflows/ci.yml', 'on: push\nquery_text: not a rule\n');
    const result = await vigil(['rules', 'validate', '-d', join(dir, 'bare'), '-r']);
    expect(result.status).toBe(1);
    expect(result.out).toMatch(new RegExp(`^${noHeader}: query_text: .* at 3:\\d+\n`));
    expect(result.err).toContain(`  ${join(dir, 'bare/.github/workflows/ci.yml')}: in a hidden folder\n`);
  });

  it('is a usage error without files', async () => {
    expect(await vigil(['rules', 'validate'])).toMatchObject({ status: 2, err: 'vigil: name rule files with -f FILE or a directory with -d DIR\n' });
  });
});

describe('vigil rules test', () => {
  it('runs each test on an engine and prints its name and result', async () => {
    expect(await vigil(['rules', 'test', '-f', good])).toEqual({ status: 0, out: `${good}: OK\n  fires: Passed\n  quiet: Passed\n`, err: '' });
  });

  it('on failure, says what the query returned in the window', async () => {
    const result = await vigil(['rules', 'test', '-f', failing]);
    expect(result.status).toBe(1);
    expect(result.out).toBe(
      `${failing}: tests failed\n` +
        '  expects a login: Failed\n' +
        '    expected a detection (at least one row); the query returned no row in [2026-05-14T23:58:00.000000000Z, 2026-05-15T00:03:00.000000000Z)\n',
    );
  });

  it('lists every problem of a file at once, a repeated test name among them', async () => {
    const broken = (name: string) => [`  - name: ${name}`, '    now_timestamp: soon', "    dataset_inline: ''", '    expected_detection_result: true'];
    const path = write('dups/duplicates.yml', rule(['tests:', ...broken('bad now'), ...broken('bad now')]));
    const result = await vigil(['rules', 'test', '-f', path]);
    expect(result.status).toBe(1);
    const problems = result.out.split('\n').filter((line) => line.trim() !== '');
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/^.*duplicates.yml: tests\[0\]\.now_timestamp must be/);
    expect(problems).toContain('    tests[1].name "bad now" is already the name of tests[0]: test names must differ at 12:11');
  });

  it('reports every file with --json, and opens no engine when there is no test to run', async () => {
    const before = opened;
    const json = JSON.parse((await vigil(['rules', 'test', '-f', good, bad, failing, '--json'])).out);
    expect(json).toEqual({
      files: [
        {
          status: 'Passed',
          file_path: good,
          tests: [
            { name: 'fires', status: 'Passed' },
            { name: 'quiet', status: 'Passed' },
          ],
        },
        { status: 'Invalid', file_path: bad, error: expect.any(String), warning: expect.any(String) },
        { status: 'TestsFailed', file_path: failing, tests: [{ name: 'expects a login', status: 'Failed' }] },
      ],
    });
    expect(opened).toBe(before + 1);
    expect(await vigil(['rules', 'test', '-f', bad, '--json'])).toMatchObject({ status: 1 });
    expect(opened).toBe(before + 1);
  });
});
