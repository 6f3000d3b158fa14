import { Command, CommanderError, Option } from 'commander';
import { VigilError, messageOf } from '../core/index.js';
import type { CliContext } from './cli-context.js';
import { overridesOf } from './cli-context.js';
import { addTenantIdCommands, collect, globalsOf as globals, reportUnknownOptionsFirst, type ActionWrapper } from './command-options.js';
import { runAlertsList, runAlertsResend, runAlertsShow } from './commands/alerts-command.js';
import { runDemoCommand } from './commands/demo-command.js';
import { runIndexCreate, runIndexDelete, runIndexList, runIndexUpdate } from './commands/index-command.js';
import { runIngestCommand } from './commands/ingest-command.js';
import { runChatAdd, runChatList, runChatRemove } from './commands/integrations-command.js';
import { runKeysCreate, runKeysList, runKeysRevoke } from './commands/keys-command.js';
import { runMigrateStore } from './commands/migrate-store-command.js';
import { runQueryCommand } from './commands/query-command.js';
import { runRulesDelete, runRulesGet, runRulesList } from './commands/rules-command.js';
import { runRulesPreview } from './commands/rules-preview-command.js';
import { runSinksCreate, runSinksDelete, runSinksGet, runSinksList, runSinksTest } from './commands/sinks-command.js';
import { registerRuleFileCommands } from './rule-file-commands.js';
import { registerRulesSyncCommand, registerSyncSourcesCommand } from './sync-commands.js';

/** Runs the `vigil` command line and returns the process exit status (0 ok, 1 failure, 2 usage, 3 some lines rejected). */
export async function runCli(argv: readonly string[], ctx: CliContext, version: string): Promise<number> {
  let status = 0;
  const program = new Command('vigil')
    .description('Vigil: log search and detection on embedded ClickHouse')
    .version(version)
    .option('--data-dir <dir>', 'data directory (default ./data, or VIGIL_DATA_DIR)')
    .option('--config <file>', 'JSON config file (default ./vigil.config.json when present, or VIGIL_CONFIG)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.stdout.write(s), writeErr: (s) => ctx.stderr.write(s) });
  const action: ActionWrapper =
    <A extends unknown[]>(run: (...args: A) => Promise<number>) =>
    async (...args: A): Promise<void> => {
      status = await run(...args);
    };

  program
    .command('serve')
    .description('run the HTTP API, detections and maintenance (what npm start runs)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1, or VIGIL_HOST)')
    .option('--port <port>', 'port to listen on (default 8080, or VIGIL_PORT)')
    .action(
      action(async (options: { host?: string; port?: string }, command: Command) => {
        const config = ctx.loadConfig({
          ...overridesOf(globals(command)),
          ...(options.host ? { host: options.host } : {}),
          ...(options.port !== undefined ? { port: options.port } : {}),
        });
        await ctx.serve(config);
        return 0;
      }),
    );

  program
    .command('ingest')
    .description('ingest log files (NDJSON, JSON array, CloudTrail Records, plain text; gzip of any) into an index')
    .argument('<files...>', 'files to read, or - for standard input')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--index <name>', 'index name or id')
    .option('--create-index', 'create the index if it does not exist')
    .option('--source-type <type>', '@svc.source_type of these events, e.g. aws:cloudtrail')
    .option('--timestamp-field <field>', 'field tried first for the event time')
    .option('--reingest', 'write again the pieces of the files an earlier run already ingested (they are skipped otherwise)')
    .option('--api-key <key>', 'key for a running server (default VIGIL_API_KEY, then data/bootstrap-key)')
    .option('--json', 'print the summary as JSON')
    .option('--quiet', 'no progress bar')
    .action(action(async (files: string[], options, command: Command) => runIngestCommand(ctx, files, { ...globals(command), ...options })));

  const index = program.command('index').description('create, list, change and delete indexes');
  const settings = (c: Command): Command =>
    c
      .option('--description <text>', 'what the index holds')
      .option('--retention-days <days>', 'days to keep events (or forever)')
      .option('--timestamp-field <field>', 'field tried for the event time (repeat for a list)', collect)
      .option('--source-type <type>', 'default @svc.source_type of its events');
  settings(index.command('create').argument('<name>').requiredOption('--tenant <tenant>', 'tenant id').option('--json', 'print JSON')).action(
    action(async (name: string, options, command: Command) => runIndexCreate(ctx, name, { ...globals(command), ...options })),
  );
  settings(index.command('update').argument('<name-or-id>').requiredOption('--tenant <tenant>', 'tenant id').option('--json', 'print JSON')).action(
    action(async (name: string, options, command: Command) => runIndexUpdate(ctx, name, { ...globals(command), ...options })),
  );
  index
    .command('list')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--json', 'print JSON')
    .action(action(async (options, command: Command) => runIndexList(ctx, { ...globals(command), ...options })));
  index
    .command('delete')
    .argument('<name-or-id>')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--json', 'print JSON')
    .action(action(async (name: string, options, command: Command) => runIndexDelete(ctx, name, { ...globals(command), ...options })));

  const keys = program.command('keys').description('create, list and revoke API keys');
  keys
    .command('create')
    .option('--tenant <tenant>', 'tenant the key may act on (repeat for several)', collect)
    .option('--name <name>', 'a label for the key')
    .addOption(new Option('--admin', 'the key may act on every tenant'))
    .option('--json', 'print JSON (includes the secret once)')
    .action(action(async (options, command: Command) => runKeysCreate(ctx, { ...globals(command), ...options })));
  keys
    .command('list')
    .option('--json', 'print JSON')
    .action(action(async (options, command: Command) => runKeysList(ctx, { ...globals(command), ...options })));
  keys
    .command('revoke')
    .argument('<id>')
    .option('--json', 'print JSON')
    .action(action(async (id: string, options, command: Command) => runKeysRevoke(ctx, id, { ...globals(command), ...options })));

  const rules = program.command('rules').description('detection rules: list, show and delete them; validate and test rule files (YAML)');
  rules
    .command('list')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--json', 'print JSON')
    .action(action(async (options, command: Command) => runRulesList(ctx, { ...globals(command), ...options })));
  addTenantIdCommands(rules, ctx, action, [
    ['get', runRulesGet],
    ['delete', runRulesDelete],
  ]);

  rules
    .command('preview')
    .description('which windows of a past range a rule would have alerted (default the last 7 days); nothing is sent or written')
    .argument('[id]', 'a stored rule of the tenant (or give -f FILE)')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('-f, --file <file>', 'a rule file (YAML) instead of a stored rule')
    .option('--from <time>', 'windows ending after this time, RFC 3339 (default: --last before --to)')
    .option('--to <time>', 'windows ending at or before this time, RFC 3339 or now (default now)')
    .option('--last <duration>', 'range length counted back from --to, e.g. 24h, 7d (default 7d)')
    .option('--max-windows <n>', 'alerting windows listed at most, newest first (1 to 500, default 500)')
    .option('--json', 'print the API answer as JSON')
    .option('--api-key <key>', 'key for a running server (default VIGIL_API_KEY, then data/bootstrap-key)')
    .action(action(async (id: string | undefined, options, command: Command) => runRulesPreview(ctx, id, { ...globals(command), ...options })));
  registerRuleFileCommands(rules, ctx, action);
  registerRulesSyncCommand(rules, ctx, action);
  registerSyncSourcesCommand(program, ctx, action);

  const sinks = program.command('sinks').description('create, list, show and delete event sinks');
  sinks
    .command('list')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--json', 'print JSON')
    .action(action(async (options, command: Command) => runSinksList(ctx, { ...globals(command), ...options })));
  addTenantIdCommands(sinks, ctx, action, [
    ['get', runSinksGet],
    ['delete', runSinksDelete],
    ['test', runSinksTest, 'send a marked test alert to the sink now, once'],
  ]);
  sinks
    .command('create')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--name <name>', 'a name for the sink')
    .option('--description <text>', 'what the sink is for')
    .option('--webhook-url <url>', 'a webhook sink posting to this http(s) URL')
    .option('--header <header>', "webhook header 'Name: value' (repeat for several)", collect)
    .option('--signing-secret <secret>', 'webhook: sign deliveries with X-Vigil-Signature')
    .option('--pager-integration-key <key>', 'a pager sink with this events API v2 integration key')
    .option('--chat-integration <id>', 'a chat sink posting through this integration (vigil integrations chat add)')
    .option('--channel-id <id>', 'chat: the channel id')
    .option('--channel <name>', 'chat: a channel name (deprecated, prefer --channel-id)')
    .option('--json', 'print JSON')
    .action(action(async (options, command: Command) => runSinksCreate(ctx, { ...globals(command), ...options })));

  const alerts = program.command('alerts').description('list and show alerts with their delivery attempts, and re-send them');
  alerts
    .command('list')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--rule <id>', "only this rule's alerts")
    .option('--status <status>', 'only alerts with this status: pending, delivered, failed, suppressed, no_sinks')
    .option('--limit <n>', 'how many, newest first (default 50)')
    .option('--json', 'print JSON')
    .action(action(async (options, command: Command) => runAlertsList(ctx, { ...globals(command), ...options })));
  addTenantIdCommands(alerts, ctx, action, [
    ['show', runAlertsShow, 'show an alert, its deliveries and every attempt'],
    ['resend', runAlertsResend, 're-queue every delivery of an alert (the server sends them)'],
  ]);

  const integrations = program.command('integrations').description('connections to chat workspaces, used by chat sinks');
  const chat = integrations.command('chat').description('chat workspace integrations (bot tokens are stored encrypted)');
  chat
    .command('add')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--token <token>', 'the bot token (xoxb-…), or - to read it from standard input')
    .option('--api-url <url>', 'chat Web API base URL (default https://slack.com/api)')
    .option('--name <name>', 'a label for the integration')
    .option('--json', 'print JSON')
    .action(action(async (options, command: Command) => runChatAdd(ctx, { ...globals(command), ...options })));
  chat
    .command('list')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--json', 'print JSON')
    .action(action(async (options, command: Command) => runChatList(ctx, { ...globals(command), ...options })));
  addTenantIdCommands(chat, ctx, action, [['remove', runChatRemove]]);

  program
    .command('query')
    .description('search events: free text, column filters and a | pipeline (see docs/query-language.md)')
    .argument('<query>', "the query, e.g. 'eventName: ConsoleLogin | groupbycount userIdentity.arn'")
    .option('--tenant <tenant>', 'tenant id', 'default')
    .option('--from <time>', 'start of the range, RFC 3339 (default: --last before --to)')
    .option('--to <time>', 'end of the range, RFC 3339 or now (default now)')
    .option('--last <duration>', 'range length counted back from --to, e.g. 15m, 24h, 7d (default 24h)')
    .option('--max-rows <n>', 'most raw events to return, 1 to 100000 (default 1000)')
    .option('--oldest-first', 'return the earliest matching events instead of the latest')
    .option('--explain', 'print the syntax tree, the SQL and the index each predicate uses, without running')
    .option('--json', 'print one JSON object per row')
    .option('--csv', 'print CSV')
    .option('--api-key <key>', 'key for a running server (default VIGIL_API_KEY, then data/bootstrap-key)')
    .action(action(async (text: string, options, command: Command) => runQueryCommand(ctx, text, { ...globals(command), ...options })));

  program
    .command('demo')
    .description('load generated sample logs into index "demo" of tenant "default"')
    .option('--events <n>', 'how many events', '3000')
    .option('--api-key <key>', 'key for a running server (default VIGIL_API_KEY, then data/bootstrap-key)')
    .action(action(async (options, command: Command) => runDemoCommand(ctx, { ...globals(command), ...options })));

  program
    .command('migrate-store')
    .description('copy the embedded store (data/vigil.db) into an empty PostgreSQL database, to run several servers (docs/scale-out.md)')
    .option('--to <url>', 'postgres://user:password@host:5432/db (default store_url, or VIGIL_STORE_URL, which keeps the password off the command line)')
    .option('--json', 'print the rows copied per table as JSON')
    .action(action(async (options, command: Command) => runMigrateStore(ctx, { ...globals(command), ...options })));

  reportUnknownOptionsFirst(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const where = error instanceof VigilError && error.field ? ` (${error.field})` : '';
    ctx.stderr.write(`vigil: ${messageOf(error)}${where}\n`);
    return error instanceof VigilError && error.code === 'invalid_argument' ? 2 : 1;
  }
}
