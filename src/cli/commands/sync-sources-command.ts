import { cliActor, type SinkKeysInput } from '../../services/index.js';
import { toSyncSourceObject } from '../../api/index.js';
import { ValidationError, formatApiTimestamp } from '../../core/index.js';
import { allPages, type SyncSourceRecord } from '../../store/index.js';
import type { CliContext, GlobalOptions } from '../cli-context.js';
import { printJson, printTable } from '../output.js';
import { withStoreServices } from '../with-services.js';

export interface SyncSourcesOptions extends GlobalOptions {
  readonly tenant: string;
  readonly json?: boolean;
}

export interface SyncSourceCreateOptions extends SyncSourcesOptions {
  readonly pushKey: string;
  readonly branch: string;
  readonly sinkKey?: readonly string[];
}

export interface SyncSourceUpdateOptions extends SyncSourcesOptions {
  readonly sinkKey?: readonly string[];
}

const inTenant = (tenant: string) => (tenantId: string) => tenantId === tenant;

/**
 * The map `--sink-key KEY=SINK_ID` flags give: a key repeated, or `KEY=ID1,ID2`, names several
 * sinks, in the order given.
 */
function sinkKeysOf(flags: readonly string[] = []): SinkKeysInput {
  const map = new Map<string, string[]>();
  for (const flag of flags) {
    const equals = flag.indexOf('=');
    const ids = flag
      .slice(equals + 1)
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    if (equals <= 0 || ids.length === 0) throw new ValidationError(`--sink-key takes KEY=SINK_ID, got ${JSON.stringify(flag)}`, { field: 'sink-key' });
    const key = flag.slice(0, equals).trim();
    map.set(key, [...(map.get(key) ?? []), ...ids]);
  }
  return Object.fromEntries(map);
}

function describeSinkKeys(source: SyncSourceRecord): string {
  return (
    Object.entries(source.sinkKeys)
      .map(([key, ids]) => `${key}=${ids.join(',')}`)
      .join(' ') || '-'
  );
}

function printSource(ctx: CliContext, source: SyncSourceRecord): void {
  const lines: [string, string][] = [
    ['id', source.id],
    ['push key', source.pushKey],
    ['branch', source.branch],
    ['sink keys', describeSinkKeys(source)],
    ['last commit', source.lastCommitSha === null ? 'never synced' : `${source.lastCommitSha}${source.lastCommitMessage ? ` ${source.lastCommitMessage.split('\n', 1)[0]}` : ''}`],
    ['synced at', source.lastSyncedAt === null ? '-' : formatApiTimestamp(source.lastSyncedAt)],
  ];
  for (const [label, value] of lines) ctx.stdout.write(`${`${label}:`.padEnd(13)}${value}\n`);
}

/** `vigil sync-sources create`: adds a repository to sync rules from, with its sink-key map. */
export async function runSyncSourcesCreate(ctx: CliContext, options: SyncSourceCreateOptions): Promise<number> {
  const sinkKeys = sinkKeysOf(options.sinkKey);
  const source = await withStoreServices(ctx, options, (s) => s.syncSources.create(options.tenant, { pushKey: options.pushKey, branch: options.branch, sinkKeys }, cliActor));
  if (options.json) printJson(ctx.stdout, toSyncSourceObject(source));
  else printSource(ctx, source);
  return 0;
}

/** `vigil sync-sources list`: every source of the tenant, with its last commit. */
export async function runSyncSourcesList(ctx: CliContext, options: SyncSourcesOptions): Promise<number> {
  const sources = await withStoreServices(ctx, options, (s) => allPages((token) => s.syncSources.list(options.tenant, 1000, token)));
  if (options.json) {
    printJson(ctx.stdout, sources.map(toSyncSourceObject));
    return 0;
  }
  if (sources.length === 0) {
    ctx.stdout.write(`tenant ${options.tenant} has no sync sources\n`);
    return 0;
  }
  printTable(
    ctx.stdout,
    ['ID', 'PUSH KEY', 'BRANCH', 'LAST COMMIT', 'SYNCED', 'SINK KEYS'],
    sources.map((s) => [s.id, s.pushKey, s.branch, s.lastCommitSha?.slice(0, 12) ?? '-', s.lastSyncedAt === null ? '-' : formatApiTimestamp(s.lastSyncedAt), describeSinkKeys(s)]),
  );
  return 0;
}

/** `vigil sync-sources get ID`. */
export async function runSyncSourcesGet(ctx: CliContext, id: string, options: SyncSourcesOptions): Promise<number> {
  const source = await withStoreServices(ctx, options, (s) => s.syncSources.find(id, inTenant(options.tenant)));
  if (options.json) printJson(ctx.stdout, toSyncSourceObject(source));
  else printSource(ctx, source);
  return 0;
}

/** `vigil sync-sources update ID --sink-key …`: replaces the sink-key map. */
export async function runSyncSourcesUpdate(ctx: CliContext, id: string, options: SyncSourceUpdateOptions): Promise<number> {
  const sinkKeys = sinkKeysOf(options.sinkKey);
  const source = await withStoreServices(ctx, options, (s) => s.syncSources.updateSinkKeys(id, sinkKeys, inTenant(options.tenant), cliActor));
  if (options.json) printJson(ctx.stdout, toSyncSourceObject(source));
  else printSource(ctx, source);
  return 0;
}

/** `vigil sync-sources delete ID`: the source and every rule synced from it. */
export async function runSyncSourcesDelete(ctx: CliContext, id: string, options: SyncSourcesOptions): Promise<number> {
  const { source, deletedRuleIds } = await withStoreServices(ctx, options, (s) => s.syncSources.delete(id, inTenant(options.tenant), cliActor));
  if (options.json) printJson(ctx.stdout, { id: source.id, tenant_id: source.tenantId, deleted_detection_rule_ids: deletedRuleIds });
  else ctx.stdout.write(`deleted sync source ${source.pushKey} (${source.branch}, ${source.id}) and its ${deletedRuleIds.length} rule${deletedRuleIds.length === 1 ? '' : 's'}\n`);
  return 0;
}
