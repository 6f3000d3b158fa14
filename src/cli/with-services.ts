import type { Services } from '../admin/index.js';
import { overridesOf, type CliContext, type GlobalOptions, type OpenOptions } from './cli-context.js';

/** Opens the store-only services for one command and closes them after, whatever happens. */
export async function withStoreServices<T>(
  ctx: CliContext,
  options: GlobalOptions,
  work: (services: Services) => Promise<T>,
  open: OpenOptions = {},
): Promise<T> {
  const opened = await ctx.openServices(ctx.loadConfig(overridesOf(options)), false, open);
  try {
    return await work(opened.services);
  } finally {
    await opened.close();
  }
}
