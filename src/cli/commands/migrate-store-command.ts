import { ValidationError } from '../../core/index.js';
import { overridesOf, type CliContext, type GlobalOptions } from '../cli-context.js';
import { printJson, printTable } from '../output.js';

export interface MigrateStoreOptions extends GlobalOptions {
  readonly to?: string;
  readonly json?: boolean;
}

/**
 * `vigil migrate-store`: copies the data dir's embedded store (SQLite) into an empty PostgreSQL
 * database, so that servers started with `store_url` pick up where the embedded one stopped
 * (docs/scale-out.md). The events stay where they are: this moves the metadata only.
 */
export async function runMigrateStore(ctx: CliContext, options: MigrateStoreOptions): Promise<number> {
  if (ctx.copyEmbeddedStore === undefined) throw new ValidationError('this build has no PostgreSQL store to copy into');
  const config = ctx.loadConfig(overridesOf(options));
  const url = options.to ?? (config.store.kind === 'postgres' ? config.store.url : undefined);
  if (url === undefined) throw new ValidationError('give the PostgreSQL store to copy into: --to postgres://… or store_url (VIGIL_STORE_URL)', { field: 'to' });
  if (!/^postgres(ql)?:\/\//.test(url)) throw new ValidationError('--to must be a postgres:// (or postgresql://) URL', { field: 'to' });
  // A running server goes on writing to the embedded store: whatever it wrote after the copy would be lost.
  const server = ctx.runningServer(config.dataDir);
  if (server !== null) {
    ctx.stderr.write(`vigil: a server (pid ${server.pid}, ${server.url}) runs on ${config.dataDir}; stop it first, or what it writes after the copy is lost\n`);
    return 1;
  }
  const copied = await ctx.copyEmbeddedStore(config, url, (table, rows) => {
    if (!options.json) ctx.stderr.write(`copied ${table}: ${rows}\n`);
  });
  const total = copied.tables.reduce((sum, t) => sum + t.rows, 0);
  if (options.json) {
    printJson(ctx.stdout, { target: copied.target, rows: total, tables: Object.fromEntries(copied.tables.map((t) => [t.table, t.rows])) });
    return 0;
  }
  printTable(
    ctx.stdout,
    ['TABLE', 'ROWS'],
    copied.tables.map((t) => [t.table, String(t.rows)]),
  );
  const key = config.security.secretsKey;
  const keyHint = key.kind === 'file' ? `the secrets key of this data dir (VIGIL_SECRETS_KEY set to the contents of ${key.path})` : 'the same secrets_key as this one';
  ctx.stdout.write(
    `\ncopied ${total} rows into ${copied.target}.\n` +
      `Start every server with store_url (VIGIL_STORE_URL) set to it and ${keyHint}: it opens the sink and chat secrets.\n` +
      "The events stay in this data dir's engine; docs/scale-out.md says how to move them.\n",
  );
  return 0;
}
