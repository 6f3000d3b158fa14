import { cliActor } from '../../services/index.js';
import { toEventSinkObject } from '../../api/index.js';
import { ValidationError } from '../../core/index.js';
import type { EventSinkArgsInput } from '../../detections/index.js';
import { allPages, type EventSinkRecord } from '../../store/index.js';
import type { CliContext, GlobalOptions } from '../cli-context.js';
import { printJson, printTable } from '../output.js';
import { withStoreServices } from '../with-services.js';

export interface SinksOptions extends GlobalOptions {
  readonly tenant: string;
  readonly json?: boolean;
}

export interface SinkCreateOptions extends SinksOptions {
  readonly name: string;
  readonly description?: string;
  readonly webhookUrl?: string;
  readonly header?: readonly string[];
  readonly signingSecret?: string;
  readonly pagerIntegrationKey?: string;
  readonly chatIntegration?: string;
  readonly channelId?: string;
  readonly channel?: string;
}

const inTenant = (tenant: string) => (tenantId: string) => tenantId === tenant;

/** One line per sink for people: where it sends, never a secret. */
function destination(sink: EventSinkRecord): string {
  const c = sink.config;
  switch (sink.type) {
    case 'Webhook':
      return String(c.url);
    case 'Chat':
      return `${String(c.channel_id ?? c.channel)} via ${String(c.chat_integration_id)}`;
    case 'Pager':
      return `integration key ${String(c.integration_key)}`;
  }
}

/** The variant the flags describe; exactly one of --webhook-url, --pager-integration-key, --chat-integration. */
function sinkArgsOf(options: SinkCreateOptions): EventSinkArgsInput {
  const chosen = [options.webhookUrl, options.pagerIntegrationKey, options.chatIntegration].filter((v) => v !== undefined);
  if (chosen.length !== 1) {
    throw new ValidationError('give exactly one of --webhook-url, --pager-integration-key or --chat-integration', { field: 'event_sink_args' });
  }
  if (options.webhookUrl !== undefined) {
    const headers: Record<string, string> = {};
    for (const header of options.header ?? []) {
      const colon = header.indexOf(':');
      if (colon <= 0) throw new ValidationError(`--header takes 'Name: value', got ${JSON.stringify(header)}`, { field: 'header' });
      headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    }
    return {
      Webhook: {
        url: options.webhookUrl,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        ...(options.signingSecret !== undefined ? { signing_secret: options.signingSecret } : {}),
      },
    };
  }
  if (options.pagerIntegrationKey !== undefined) return { Pager: { integration_key: options.pagerIntegrationKey } };
  return {
    Chat: {
      chat_integration_id: options.chatIntegration ?? '',
      ...(options.channelId !== undefined ? { channel_id: options.channelId } : {}),
      ...(options.channel !== undefined ? { channel: options.channel } : {}),
    },
  };
}

/** `vigil sinks list`: every sink of the tenant, all pages. */
export async function runSinksList(ctx: CliContext, options: SinksOptions): Promise<number> {
  const sinks = await withStoreServices(ctx, options, (s) => allPages((token) => s.sinks.list(options.tenant, 1000, token)));
  if (options.json) {
    printJson(ctx.stdout, sinks.map(toEventSinkObject));
    return 0;
  }
  if (sinks.length === 0) {
    ctx.stdout.write(`tenant ${options.tenant} has no event sinks\n`);
    return 0;
  }
  printTable(
    ctx.stdout,
    ['ID', 'TYPE', 'NAME', 'DESTINATION'],
    sinks.map((s) => [s.id, s.type, s.name, destination(s)]),
  );
  return 0;
}

/** `vigil sinks get ID`. */
export async function runSinksGet(ctx: CliContext, id: string, options: SinksOptions): Promise<number> {
  const sink = await withStoreServices(ctx, options, (s) => s.sinks.find(id, inTenant(options.tenant)));
  if (options.json) printJson(ctx.stdout, toEventSinkObject(sink));
  else ctx.stdout.write(`${sink.type} sink ${sink.name} (${sink.id}): ${destination(sink)}\n`);
  return 0;
}

/** `vigil sinks create --name N (--webhook-url … | --pager-integration-key … | --chat-integration … --channel-id …)`. */
export async function runSinksCreate(ctx: CliContext, options: SinkCreateOptions): Promise<number> {
  const args = sinkArgsOf(options);
  const sink = await withStoreServices(ctx, options, (s) => s.sinks.create(options.tenant, { name: options.name, description: options.description ?? '', args }, cliActor));
  if (options.json) printJson(ctx.stdout, toEventSinkObject(sink));
  else ctx.stdout.write(`created ${sink.type} sink ${sink.name} (${sink.id}) in tenant ${sink.tenantId}\n`);
  return 0;
}

/** `vigil sinks delete ID`: rules that used the sink stop alerting it. */
export async function runSinksDelete(ctx: CliContext, id: string, options: SinksOptions): Promise<number> {
  const { sink, detachedRuleIds } = await withStoreServices(ctx, options, (s) => s.sinks.delete(id, inTenant(options.tenant), cliActor));
  if (options.json) printJson(ctx.stdout, { id: sink.id, tenant_id: sink.tenantId, detached_from_rules: detachedRuleIds });
  else {
    const detached = detachedRuleIds.length === 0 ? '' : `; removed from ${detachedRuleIds.length} rule${detachedRuleIds.length === 1 ? '' : 's'}`;
    ctx.stdout.write(`deleted event sink ${sink.name} (${sink.id})${detached}\n`);
  }
  return 0;
}

/** `vigil sinks test ID`: sends a marked test alert now, once, and prints what the receiver said (exit 1 when not delivered). */
export async function runSinksTest(ctx: CliContext, id: string, options: SinksOptions): Promise<number> {
  const outcome = await withStoreServices(ctx, options, (s) => s.sinkTests.test(id, inTenant(options.tenant), cliActor));
  const error = outcome.kind === 'delivered' ? null : outcome.error;
  if (options.json) {
    printJson(ctx.stdout, { delivered: outcome.kind === 'delivered', outcome: outcome.kind, http_status: outcome.httpStatus, latency_ms: Math.round(outcome.latencyMs), error });
  } else {
    const status = outcome.httpStatus === null ? 'no HTTP answer' : `HTTP ${outcome.httpStatus}`;
    ctx.stdout.write(
      `${outcome.kind === 'delivered' ? 'delivered' : `not delivered (${outcome.kind})`}: ${status} in ${Math.round(outcome.latencyMs)} ms${error === null ? '' : `: ${error}`}\n`,
    );
  }
  return outcome.kind === 'delivered' ? 0 : 1;
}
