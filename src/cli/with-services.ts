import type { Services } from '../services/index.js';
import { overridesOf, type CliContext, type GlobalOptions, type OpenOptions } from './cli-context.js';

/** Opens the store-only services for one command and closes them after, whatever happens. */
export async function withStoreServices<T>(ctx: CliContext, options: GlobalOptions, work: (services: Services) => Promise<T>, open: OpenOptions = {}): Promise<T> {
  const opened = await ctx.openServices(ctx.loadConfig(overridesOf(options)), false, open);
  try {
    await resolveTenantOption(opened.services, options);
    return await work(opened.services);
  } finally {
    await opened.close();
  }
}

/**
 * Reads a `--tenant` that names a tenant (`default`, whose id is a UUID) as that tenant's id, in
 * the command's own options object, so every service the command calls gets the id. A tenant
 * not found by id or name stays as given (commands that create data create it under that id).
 */
export async function resolveTenantOption(services: Services, options: object): Promise<void> {
  const holder = options as { tenant?: unknown };
  if (typeof holder.tenant === 'string') holder.tenant = await services.tenants.resolve(holder.tenant);
  else if (Array.isArray(holder.tenant)) holder.tenant = await Promise.all(holder.tenant.map((t: unknown) => (typeof t === 'string' ? services.tenants.resolve(t) : t)));
}
