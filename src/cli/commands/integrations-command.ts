import { cliActor } from '../../services/index.js';
import { formatApiTimestamp } from '../../core/index.js';
import type { ChatIntegrationRecord } from '../../store/index.js';
import type { CliContext, GlobalOptions } from '../cli-context.js';
import { printJson, printTable } from '../output.js';
import { withStoreServices } from '../with-services.js';

export interface IntegrationsOptions extends GlobalOptions {
  readonly json?: boolean;
}

/** Never the token: its kind and last characters at most. */
function integrationJson(i: ChatIntegrationRecord): Record<string, unknown> {
  return { chat_integration_id: i.id, tenant_id: i.tenantId, name: i.name, api_url: i.apiUrl, token: i.tokenHint, created_at: formatApiTimestamp(i.createdAt) };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text;
}

/** `vigil integrations chat add --tenant T --token xoxb-…|- [--api-url URL] [--name N]`: prints the chat_integration_id. */
export async function runChatAdd(ctx: CliContext, options: IntegrationsOptions & { tenant: string; token: string; apiUrl?: string; name?: string }): Promise<number> {
  // `--token -` reads the token from standard input, keeping it out of shell history and `ps`.
  const token = options.token === '-' ? (await readAll(ctx.stdin)).trim() : options.token;
  const integration = await withStoreServices(ctx, options, (s) =>
    s.chatIntegrations.add(
      options.tenant,
      { token, ...(options.apiUrl !== undefined ? { apiUrl: options.apiUrl } : {}), ...(options.name !== undefined ? { name: options.name } : {}) },
      cliActor,
    ),
  );
  if (options.json) printJson(ctx.stdout, integrationJson(integration));
  else ctx.stdout.write(`${integration.id}\n`);
  return 0;
}

/** `vigil integrations chat list [--tenant T]`. */
export async function runChatList(ctx: CliContext, options: IntegrationsOptions & { tenant?: string }): Promise<number> {
  const integrations = await withStoreServices(ctx, options, (s) => s.chatIntegrations.list(options.tenant));
  if (options.json) {
    printJson(ctx.stdout, integrations.map(integrationJson));
    return 0;
  }
  printTable(
    ctx.stdout,
    ['ID', 'TENANT', 'NAME', 'TOKEN', 'API URL', 'CREATED'],
    integrations.map((i) => [i.id, i.tenantId, i.name, i.tokenHint, i.apiUrl ?? 'default', formatApiTimestamp(i.createdAt)]),
  );
  return 0;
}

/** `vigil integrations chat remove ID --tenant T`: refused while sinks post through it. */
export async function runChatRemove(ctx: CliContext, id: string, options: IntegrationsOptions & { tenant: string }): Promise<number> {
  const integration = await withStoreServices(ctx, options, (s) => s.chatIntegrations.remove(options.tenant, id, cliActor));
  if (options.json) printJson(ctx.stdout, { chat_integration_id: integration.id, tenant_id: integration.tenantId, removed: true });
  else ctx.stdout.write(`removed chat integration ${integration.name} (${integration.id})\n`);
  return 0;
}
