import { ValidationError } from '../core/index.js';
import type { EventSinkType } from '../domain/index.js';
import { DestinationPolicy } from '../sinks/index.js';

export interface ChatArgsInput {
  readonly channel_id?: string;
  /** Deprecated: a channel name, sent as the channel (detections.md E11). */
  readonly channel?: string;
  readonly chat_integration_id?: string;
}
export interface WebhookArgsInput {
  readonly url?: string;
  /** Extra request headers; null removes them. Their values are secrets: never returned. */
  readonly headers?: Readonly<Record<string, string>> | null;
  /** Key of the `X-Vigil-Signature` HMAC (detections.md E10); null removes it. Never returned. */
  readonly signing_secret?: string | null;
}
export interface PagerArgsInput {
  /** The events-API v2 integration key: a secret, returned masked. */
  readonly integration_key?: string;
}

/** `event_sink_args` (docs/interface.md 2.7): an object with exactly one variant key. */
export interface EventSinkArgsInput {
  readonly Chat?: ChatArgsInput;
  readonly Webhook?: WebhookArgsInput;
  readonly Pager?: PagerArgsInput;
}

/** The secret arguments of a sink, sealed as one JSON value by the service. */
export interface SinkSecrets {
  readonly headers?: Readonly<Record<string, string>>;
  readonly signing_secret?: string;
  readonly integration_key?: string;
}

/** A sink's arguments split into what may be shown (`config`) and what is sealed (`secrets`). */
export interface CheckedSinkArgs {
  readonly type: EventSinkType;
  readonly config: Readonly<Record<string, unknown>>;
  readonly secrets: SinkSecrets | null;
  readonly chatIntegrationId: string | null;
}

export const eventSinkTypes: readonly EventSinkType[] = ['Chat', 'Webhook', 'Pager'];

const headerNamePattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
// Set by the service on every delivery, or framing the request: a sink may not replace them.
const reservedHeaders = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'user-agent']);
const maxHeaders = 20;
const integrationKeyPattern = /^[A-Za-z0-9_+-]{8,128}$/;

/**
 * Checks `event_sink_args` and turns them into a sink's public configuration and sealed secrets.
 * URLs go through the DestinationPolicy. On update with the same variant, fields not given keep
 * their current value (secrets cannot be read back, so a client could not resend them); a new
 * variant replaces everything and needs its create fields.
 */
export class EventSinkArgsChecker {
  private readonly policy: DestinationPolicy;

  constructor(options: { readonly allowPrivateDestinations: boolean }) {
    this.policy = new DestinationPolicy(options.allowPrivateDestinations);
  }

  /** Checks a destination URL given elsewhere (a chat integration's API URL). */
  checkDestination(url: string, field: string): string {
    this.policy.checkUrl(url, field);
    return url;
  }

  check(
    args: EventSinkArgsInput,
    current?: { readonly type: EventSinkType; readonly config: Readonly<Record<string, unknown>>; readonly secrets: SinkSecrets | null },
  ): CheckedSinkArgs {
    const keys = typeof args === 'object' && args !== null ? Object.keys(args) : [];
    const type = keys[0];
    if (keys.length !== 1 || !(eventSinkTypes as readonly string[]).includes(type ?? '')) {
      throw new ValidationError(`event_sink_args must have exactly one of ${eventSinkTypes.join(', ')}`, { field: 'event_sink_args' });
    }
    const same = current?.type === type ? current : undefined;
    switch (type as EventSinkType) {
      case 'Chat':
        return this.chat(args.Chat ?? {}, same);
      case 'Webhook':
        return this.webhook(args.Webhook ?? {}, same);
      case 'Pager':
        return this.pager(args.Pager ?? {}, same);
    }
  }

  private chat(args: ChatArgsInput, current: { config: Readonly<Record<string, unknown>> } | undefined): CheckedSinkArgs {
    const field = 'event_sink_args.Chat';
    if (args.channel_id !== undefined && args.channel !== undefined) {
      throw new ValidationError(`${field}.channel cannot be given with channel_id: give channel_id or the deprecated channel, not both`, { field: `${field}.channel` });
    }
    let channel: Record<string, string>;
    if (args.channel_id !== undefined) channel = { channel_id: checkText(args.channel_id, `${field}.channel_id`, 200) };
    else if (args.channel !== undefined) channel = { channel: checkText(args.channel, `${field}.channel`, 200) };
    else if (current !== undefined) channel = pick(current.config, ['channel_id', 'channel']);
    else throw new ValidationError(`${field}.channel_id is required`, { field: `${field}.channel_id` });
    const integration =
      args.chat_integration_id !== undefined
        ? checkText(args.chat_integration_id, `${field}.chat_integration_id`, 200)
        : (current?.config.chat_integration_id as string | undefined);
    if (integration === undefined) throw new ValidationError(`${field}.chat_integration_id is required`, { field: `${field}.chat_integration_id` });
    return { type: 'Chat', config: { ...channel, chat_integration_id: integration }, secrets: null, chatIntegrationId: integration };
  }

  private webhook(args: WebhookArgsInput, current: { config: Readonly<Record<string, unknown>>; secrets: SinkSecrets | null } | undefined): CheckedSinkArgs {
    const field = 'event_sink_args.Webhook';
    let url = current?.config.url as string | undefined;
    if (args.url !== undefined) {
      // Kept as given (not the parser's normal form), so a client reads back what it wrote.
      url = checkText(args.url, `${field}.url`, 2048);
      this.policy.checkUrl(url, `${field}.url`);
    }
    if (url === undefined) throw new ValidationError(`${field}.url is required`, { field: `${field}.url` });
    const headers = args.headers === undefined ? current?.secrets?.headers : args.headers === null ? undefined : checkHeaders(args.headers, `${field}.headers`);
    const signingSecret =
      args.signing_secret === undefined
        ? current?.secrets?.signing_secret
        : args.signing_secret === null
          ? undefined
          : checkSigningSecret(args.signing_secret, `${field}.signing_secret`);
    const secrets: SinkSecrets = { ...(headers ? { headers } : {}), ...(signingSecret ? { signing_secret: signingSecret } : {}) };
    return {
      type: 'Webhook',
      config: { url, header_names: Object.keys(headers ?? {}).sort(), has_signing_secret: signingSecret !== undefined },
      secrets: Object.keys(secrets).length === 0 ? null : secrets,
      chatIntegrationId: null,
    };
  }

  private pager(args: PagerArgsInput, current: { config: Readonly<Record<string, unknown>>; secrets: SinkSecrets | null } | undefined): CheckedSinkArgs {
    const field = 'event_sink_args.Pager.integration_key';
    if (args.integration_key === undefined && current !== undefined) return { type: 'Pager', config: current.config, secrets: current.secrets, chatIntegrationId: null };
    const key = args.integration_key;
    if (key === undefined) throw new ValidationError(`${field} is required`, { field });
    if (typeof key !== 'string' || !integrationKeyPattern.test(key)) {
      throw new ValidationError(`${field} must be 8-128 letters, digits or _ + - (an events API v2 integration key)`, { field });
    }
    return { type: 'Pager', config: { integration_key: maskSecret(key) }, secrets: { integration_key: key }, chatIntegrationId: null };
  }
}

/** Shows the last four characters of a long secret and nothing of a short one: `********abcd`. */
export function maskSecret(secret: string): string {
  return secret.length >= 12 ? `********${secret.slice(-4)}` : '********';
}

function pick(config: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) if (typeof config[key] === 'string') out[key] = config[key];
  return out;
}

function checkText(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new ValidationError(`${field} must be a non-empty string of at most ${max} characters without control characters`, { field });
  }
  return value;
}

function checkHeaders(headers: unknown, field: string): Record<string, string> {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) throw new ValidationError(`${field} must be an object of header names to values`, { field });
  const entries = Object.entries(headers as Record<string, unknown>);
  if (entries.length > maxHeaders) throw new ValidationError(`${field} must have at most ${maxHeaders} headers`, { field });
  const seen = new Set<string>();
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (!headerNamePattern.test(name)) throw new ValidationError(`${field}: ${JSON.stringify(name)} is not a valid header name`, { field });
    if (reservedHeaders.has(lower) || lower.startsWith('x-vigil-')) {
      throw new ValidationError(`${field}.${name} is set by the service and cannot be configured`, { field: `${field}.${name}` });
    }
    if (seen.has(lower)) throw new ValidationError(`${field}: ${name} is given twice (header names ignore case)`, { field });
    seen.add(lower);
    if (typeof value !== 'string' || value.length > 4096 || /[\r\n\u0000]/.test(value)) {
      throw new ValidationError(`${field}.${name} must be a string of at most 4096 characters without line breaks`, { field: `${field}.${name}` });
    }
    out[name] = value;
  }
  return out;
}

function checkSigningSecret(secret: unknown, field: string): string {
  if (typeof secret !== 'string' || secret.length < 16 || secret.length > 512) throw new ValidationError(`${field} must be 16 to 512 characters`, { field });
  return secret;
}
