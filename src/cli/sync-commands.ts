import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { addTenantIdCommands, collect, globalsOf as globals, type ActionWrapper } from './command-options.js';
import { runRulesSync } from './commands/rules-sync-command.js';
import { runSyncSourcesCreate, runSyncSourcesDelete, runSyncSourcesGet, runSyncSourcesList, runSyncSourcesUpdate } from './commands/sync-sources-command.js';

const sinkKeyHelp = 'map a rule file event_sink_keys name to a sink: KEY=SINK_ID (repeat, or KEY=ID1,ID2, for several)';

/** `vigil sync-sources create|list|get|update|delete`: the repositories a tenant syncs rules from. */
export function registerSyncSourcesCommand(program: Command, ctx: CliContext, action: ActionWrapper): void {
  const sources = program.command('sync-sources').description('repositories whose rule files are synced into a tenant (vigil rules sync uploads to them)');
  sources
    .command('create')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--push-key <key>', 'the name uploads give, with the branch, to find this source')
    .requiredOption('--branch <branch>', 'the branch synced, e.g. main')
    .option('--sink-key <KEY=SINK_ID>', sinkKeyHelp, collect)
    .option('--json', 'print JSON')
    .action(action(async (options, command: Command) => runSyncSourcesCreate(ctx, { ...globals(command), ...options })));
  sources
    .command('list')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--json', 'print JSON')
    .action(action(async (options, command: Command) => runSyncSourcesList(ctx, { ...globals(command), ...options })));
  sources
    .command('update')
    .description('replace the sink-key map (the next sync resolves its rules through it)')
    .argument('<id>')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--sink-key <KEY=SINK_ID>', sinkKeyHelp, collect)
    .option('--json', 'print JSON')
    .action(action(async (id: string, options, command: Command) => runSyncSourcesUpdate(ctx, id, { ...globals(command), ...options })));
  addTenantIdCommands(sources, ctx, action, [
    ['get', runSyncSourcesGet, 'show a source, its sink keys and its last synced commit'],
    ['delete', runSyncSourcesDelete, 'delete a source and every rule synced from it'],
  ]);
}

/** `vigil rules sync DIR --push-key K`: zips the rule repository in DIR and uploads it to the server. */
export function registerRulesSyncCommand(rules: Command, ctx: CliContext, action: ActionWrapper): void {
  rules
    .command('sync')
    .description('upload the files of a repository (git ls-files when DIR is a git work tree) to its sync source on the server; all or nothing')
    .argument('<dir>', 'the repository (or any folder) holding the rule files')
    .requiredOption('--push-key <key>', 'the push key of the sync source')
    .option('--branch <branch>', 'the branch of the sync source (default: the checked-out git branch)')
    .option('--commit-sha <sha>', 'the commit recorded (default: HEAD, with +dirty when the tree has changes)')
    .option('--commit-message <text>', 'the commit message recorded (default: that of HEAD)')
    .option('--tenant <tenant>', 'tenant id (needed only when the key holds several tenants with this source)')
    .option('--api-url <url>', 'the server (default VIGIL_API_URL, then the server running on the data dir)')
    .option('--api-key <key>', 'key for the server (default VIGIL_API_KEY, then data/bootstrap-key)')
    .option('--json', "print the server's answer as JSON")
    .action(action(async (dir: string, options, command: Command) => runRulesSync(ctx, dir, { ...globals(command), ...options })));
}
