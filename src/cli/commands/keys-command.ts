import { cliActor, type KeyService } from '../../services/index.js';
import { formatApiTimestamp, ValidationError } from '../../core/index.js';
import type { ApiKeyRecord } from '../../store/index.js';
import type { CliContext, GlobalOptions, OpenOptions } from '../cli-context.js';
import { withStoreServices } from '../with-services.js';
import { printJson, printTable } from '../output.js';

export interface KeysOptions extends GlobalOptions {
  readonly json?: boolean;
}

function keyJson(key: ApiKeyRecord): Record<string, unknown> {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    tenants: key.tenants,
    created_at: formatApiTimestamp(key.createdAt),
    last_used_at: key.lastUsedAt === null ? null : formatApiTimestamp(key.lastUsedAt),
    revoked_at: key.revokedAt === null ? null : formatApiTimestamp(key.revokedAt),
  };
}

async function withKeys<T>(ctx: CliContext, options: GlobalOptions, work: (keys: KeyService) => Promise<T>, open: OpenOptions = {}): Promise<T> {
  return withStoreServices(ctx, options, (services) => work(services.keys), open);
}

/** `vigil keys create --tenant T…`: prints the secret once. */
export async function runKeysCreate(ctx: CliContext, options: KeysOptions & { tenant?: string[]; name?: string; admin?: boolean }): Promise<number> {
  // An admin key holds every tenant: a --tenant beside it would be silently dropped.
  if (options.admin && options.tenant && options.tenant.length > 0) {
    throw new ValidationError('--admin makes a key for every tenant; give either --admin or --tenant, not both', { field: 'tenant' });
  }
  const created = await withKeys(
    ctx,
    options,
    (keys) => keys.create({ tenants: options.tenant ?? [], ...(options.name ? { name: options.name } : {}), ...(options.admin ? { admin: true } : {}) }, cliActor),
    { createDataDir: true },
  );
  if (options.json) {
    printJson(ctx.stdout, { ...keyJson(created.key), key: created.secret });
  } else {
    ctx.stdout.write(`created api key ${created.key.id} for ${created.key.tenants.join(', ')}. It is shown only this once:\n\n    ${created.secret}\n\n`);
  }
  return 0;
}

/** `vigil keys list`: never shows secrets, only their first characters. */
export async function runKeysList(ctx: CliContext, options: KeysOptions): Promise<number> {
  const keys = await withKeys(ctx, options, (k) => k.list());
  if (options.json) {
    printJson(ctx.stdout, keys.map(keyJson));
    return 0;
  }
  printTable(
    ctx.stdout,
    ['ID', 'NAME', 'PREFIX', 'TENANTS', 'CREATED', 'LAST USED', 'STATUS'],
    keys.map((k) => [
      k.id,
      k.name,
      `${k.prefix}…`,
      k.tenants.join(','),
      formatApiTimestamp(k.createdAt),
      k.lastUsedAt === null ? '-' : formatApiTimestamp(k.lastUsedAt),
      k.revokedAt === null ? 'active' : 'revoked',
    ]),
  );
  return 0;
}

/** `vigil keys revoke ID`. */
export async function runKeysRevoke(ctx: CliContext, id: string, options: KeysOptions): Promise<number> {
  const key = await withKeys(ctx, options, (k) => k.revoke(id, cliActor));
  if (options.json) printJson(ctx.stdout, { id: key.id, revoked: true });
  else ctx.stdout.write(`revoked api key ${key.id} (${key.name})\n`);
  return 0;
}
