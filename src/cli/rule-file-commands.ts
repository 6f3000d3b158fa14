import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { collect, globalsOf as globals, type ActionWrapper } from './command-options.js';
import { runRulesTest, runRulesValidate } from './commands/rule-files-command.js';

/**
 * `vigil rules validate|test -f FILE… | -d DIR [-r] [--json]`: rule files checked, and their
 * tests run, offline on a temporary engine, or on a server with `--api-url` (or VIGIL_API_URL).
 */
export function registerRuleFileCommands(rules: Command, ctx: CliContext, action: ActionWrapper): void {
  const files = (c: Command): Command =>
    c
      .option('-f, --file <file...>', 'a rule file (repeat, or list several)', collect)
      .option('-d, --dir <dir>', 'a directory of rule files: its .yaml/.yml files with a # schema: first line (repeatable)', collect)
      .option('-r, --recursive', 'with -d, search subdirectories too')
      .option('--json', 'print {files: [{status, file_path, warning?, error?, tests?}]}')
      .option('--api-url <url>', 'run on this server instead of offline (default VIGIL_API_URL)')
      .option('--api-key <key>', 'key for --api-url (default VIGIL_API_KEY, then data/bootstrap-key)');
  files(rules.command('validate').description('check rule files (YAML): prints <path>: OK or each problem with its line:column; exit 0 only if all are valid')).action(
    action(async (options, command: Command) => runRulesValidate(ctx, { ...globals(command), ...options })),
  );
  files(rules.command('test').description("check rule files and run their tests on a temporary engine (or the server's); exit 0 only if all pass")).action(
    action(async (options, command: Command) => runRulesTest(ctx, { ...globals(command), ...options })),
  );
}
