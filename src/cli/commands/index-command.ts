import { cliActor } from '../../services/index.js';
import { formatApiTimestamp, ValidationError } from '../../core/index.js';
import { allPages, type IndexRecord } from '../../store/index.js';
import type { CliContext, GlobalOptions } from '../cli-context.js';
import { withStoreServices as withServices } from '../with-services.js';
import { printJson, printTable } from '../output.js';

export interface IndexCommonOptions extends GlobalOptions {
  readonly tenant: string;
  readonly json?: boolean;
}

export interface IndexSettingsOptions {
  readonly description?: string;
  readonly retentionDays?: string;
  readonly timestampField?: readonly string[];
  readonly sourceType?: string;
}

function indexJson(index: IndexRecord): Record<string, unknown> {
  return {
    id: index.id,
    tenant_id: index.tenantId,
    name: index.name,
    description: index.description,
    retention_days: index.retentionDays,
    timestamp_fields: index.timestampFields,
    source_type: index.sourceType,
    created_at: formatApiTimestamp(index.createdAt),
    updated_at: formatApiTimestamp(index.updatedAt),
  };
}

function parseRetention(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'forever' || value === 'none') return null;
  if (!/^\d+$/.test(value)) throw new ValidationError('--retention-days takes a whole number of days, or forever', { field: 'retention-days' });
  return Number(value);
}

function settingsOf(options: IndexSettingsOptions) {
  const retentionDays = parseRetention(options.retentionDays);
  return {
    ...(options.description !== undefined ? { description: options.description } : {}),
    ...(retentionDays !== undefined ? { retentionDays } : {}),
    ...(options.timestampField && options.timestampField.length > 0 ? { timestampFields: options.timestampField } : {}),
    ...(options.sourceType !== undefined ? { sourceType: options.sourceType } : {}),
  };
}

/** `vigil index create NAME`. */
export async function runIndexCreate(ctx: CliContext, name: string, options: IndexCommonOptions & IndexSettingsOptions): Promise<number> {
  const index = await withServices(ctx, options, (s) => s.indexes.create(options.tenant, { name, ...settingsOf(options) }, cliActor), { createDataDir: true });
  if (options.json) printJson(ctx.stdout, indexJson(index));
  else ctx.stdout.write(`created index ${index.name} (${index.id}) in tenant ${index.tenantId}\n`);
  return 0;
}

/** `vigil index update NAME|ID`. */
export async function runIndexUpdate(ctx: CliContext, nameOrId: string, options: IndexCommonOptions & IndexSettingsOptions): Promise<number> {
  const index = await withServices(ctx, options, (s) => s.indexes.update(options.tenant, nameOrId, settingsOf(options), cliActor));
  if (options.json) printJson(ctx.stdout, indexJson(index));
  else ctx.stdout.write(`updated index ${index.name} (${index.id})\n`);
  return 0;
}

/** `vigil index list`: every user index of the tenant, all pages. */
export async function runIndexList(ctx: CliContext, options: IndexCommonOptions): Promise<number> {
  const indexes = await withServices(ctx, options, (s) => allPages((token) => s.indexes.list(options.tenant, 1000, token)));
  if (options.json) {
    printJson(ctx.stdout, indexes.map(indexJson));
    return 0;
  }
  if (indexes.length === 0) {
    ctx.stdout.write(`tenant ${options.tenant} has no indexes yet (create one with: vigil index create NAME --tenant ${options.tenant})\n`);
    return 0;
  }
  printTable(
    ctx.stdout,
    ['NAME', 'ID', 'RETENTION', 'DESCRIPTION'],
    indexes.map((i) => [i.name, i.id, i.retentionDays === null ? 'forever' : `${i.retentionDays}d`, i.description]),
  );
  return 0;
}

/** `vigil index delete NAME|ID`. */
export async function runIndexDelete(ctx: CliContext, nameOrId: string, options: IndexCommonOptions): Promise<number> {
  const index = await withServices(ctx, options, (s) => s.indexes.delete(options.tenant, nameOrId, cliActor));
  if (options.json) printJson(ctx.stdout, { id: index.id, tenant_id: index.tenantId, deleted: true });
  else ctx.stdout.write(`deleted index ${index.name} (${index.id}); its events are purged in the background\n`);
  return 0;
}
