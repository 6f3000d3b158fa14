import { RuleFileChecks, RuleTestRunner, type RuleTestResult } from '../../services/index.js';
import { ConfigError, formatRfc3339Ns, silentLogger, systemClock } from '../../core/index.js';
import { overridesOf, type CliContext, type GlobalOptions } from '../cli-context.js';
import { printJson } from '../output.js';
import { readRuleFileSelection, type RuleFileOnDisk, type RuleFileSelection } from '../rule-file-paths.js';
import { testOverHttp, validateOverHttp, type RuleFileOutcome, type ServerTarget } from '../rule-files-over-http.js';
import { serverApiKey } from '../server-api-key.js';

export interface RuleFilesOptions extends GlobalOptions, RuleFileSelection {
  readonly json?: boolean;
  readonly apiUrl?: string;
  readonly apiKey?: string;
}

/** `vigil rules validate`: checks each rule file; exit 0 only when all are valid. */
export async function runRulesValidate(ctx: CliContext, options: RuleFilesOptions): Promise<number> {
  return run(ctx, options, 'validate');
}

/** `vigil rules test`: checks each rule file and runs its tests; exit 0 only when all pass. */
export async function runRulesTest(ctx: CliContext, options: RuleFilesOptions): Promise<number> {
  return run(ctx, options, 'test');
}

async function run(ctx: CliContext, options: RuleFilesOptions, mode: 'validate' | 'test'): Promise<number> {
  const { files, skipped } = readRuleFileSelection(options);
  if (skipped.length > 0 && !options.json) {
    // The reasons a repository sync gives in ignored_files: the same files are left out there.
    const one = skipped.length === 1;
    ctx.stderr.write(
      `skipped ${skipped.length} YAML file${one ? ' that is not a rule file' : 's that are not rule files'}, as a repository sync would (name ${one ? 'it' : 'them'} with -f to check ${one ? 'it' : 'them'}):\n`,
    );
    for (const file of skipped) ctx.stderr.write(`  ${file.path}: ${file.reason}\n`);
  }
  const server = serverTarget(ctx, options);
  const outcomes = server ? await remote(server, files, mode) : await local(ctx, files, mode);
  if (options.json) {
    printJson(ctx.stdout, { files: outcomes.map(jsonOf) });
  } else {
    for (const outcome of outcomes) printOutcome(ctx.stdout, outcome, mode);
  }
  const good = mode === 'validate' ? 'Valid' : 'Passed';
  return outcomes.every((o) => o.status === good) ? 0 : 1;
}

/** The server to use: `--api-url` or VIGIL_API_URL; none means work offline. */
function serverTarget(ctx: CliContext, options: RuleFilesOptions): ServerTarget | null {
  const config = ctx.loadConfig(overridesOf(options));
  const url = options.apiUrl?.replace(/\/+$/, '') ?? config.cliApiUrl;
  return url ? { url, apiKey: serverApiKey(config, options.apiKey) } : null;
}

async function remote(server: ServerTarget, files: readonly RuleFileOnDisk[], mode: 'validate' | 'test'): Promise<RuleFileOutcome[]> {
  const outcomes: RuleFileOutcome[] = [];
  for (const file of files) outcomes.push(await (mode === 'validate' ? validateOverHttp(server, file) : testOverHttp(server, file)));
  return outcomes;
}

/** Offline: checks need nothing; tests get a temporary engine, opened once for every file. */
async function local(ctx: CliContext, files: readonly RuleFileOnDisk[], mode: 'validate' | 'test'): Promise<RuleFileOutcome[]> {
  if (mode === 'validate') return new RuleFileChecks(null).checkFiles(null, files, { runTests: false });
  const checks = new RuleFileChecks(null);
  const checked = await checks.checkFiles(null, files, { runTests: false });
  if (checked.every((c) => c.status !== 'Valid' || (c.definition?.tests.length ?? 0) === 0)) {
    // No test to run: no engine to start.
    return checked.map((c) => (c.status === 'Valid' ? { ...c, status: 'Passed' as const, tests: [] } : c));
  }
  if (!ctx.openScratchEngine) throw new ConfigError('this build cannot run rule tests offline: pass --api-url to run them on a server');
  const scratch = await ctx.openScratchEngine();
  try {
    // The engine is thrown away afterwards, so the tests' scratch events need no deleting.
    const runner = new RuleTestRunner(scratch.engine, systemClock, silentLogger, { deleteScratchEvents: false });
    return await new RuleFileChecks(runner).checkFiles(null, files, { runTests: true });
  } finally {
    await scratch.close();
  }
}

function jsonOf(outcome: RuleFileOutcome): Record<string, unknown> {
  return {
    status: outcome.status,
    file_path: outcome.path,
    ...(outcome.warning ? { warning: outcome.warning } : {}),
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.tests ? { tests: outcome.tests.map((t) => ({ name: t.name, status: t.status })) } : {}),
  };
}

function printOutcome(out: NodeJS.WritableStream, outcome: RuleFileOutcome, mode: 'validate' | 'test'): void {
  const indent = (text: string, by = '    '): string => text.split('\n').join(`\n${by}`);
  if (outcome.error) {
    out.write(`${outcome.path}: ${indent(outcome.error)}\n`);
  } else {
    out.write(`${outcome.path}: ${mode === 'validate' ? 'OK' : outcome.status === 'Passed' ? 'OK' : 'tests failed'}\n`);
  }
  if (outcome.warning) out.write(`  warning: ${indent(outcome.warning, '  warning: ')}\n`);
  for (const test of outcome.tests ?? []) {
    out.write(`  ${test.name}: ${test.status}\n`);
    if (test.status === 'Failed') out.write(failureDetail(test));
  }
}

/** What a failed test's query returned in its window, so the user sees why. */
function failureDetail(test: RuleTestResult): string {
  const window = `[${formatRfc3339Ns(test.window.startNs)}, ${formatRfc3339Ns(test.window.endNs)})`;
  const expected = test.expectedDetectionResult ? 'a detection (at least one row)' : 'no detection (no row)';
  const lines = [`    expected ${expected}; the query returned ${test.rowCount === 0 ? 'no row' : `${test.rowCount} row${test.rowCount === 1 ? '' : 's'}`} in ${window}`];
  for (const row of test.rows) lines.push(`      ${JSON.stringify(row)}`);
  if (test.rowCount > test.rows.length) lines.push(`      … ${test.rowCount - test.rows.length} more`);
  return `${lines.join('\n')}\n`;
}
