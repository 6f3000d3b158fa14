import type { Clock } from '../core/index.js';
import { ChatSink, DestinationPolicy, HttpPoster, PagerSink, WebhookSink, defaultChatApiUrl, defaultPagerApiUrl, type Sink } from '../sinks/index.js';
import type { ChatIntegrationRecord, EventSinkRecord, Store } from '../store/index.js';
import type { SinkSecrets } from './event-sink-args.js';
import type { ResolveSink } from './delivery-worker.js';

export interface SinkResolverDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** Where sends may go (the operator's `allow_private_destinations`) and how long one may take. */
  readonly http: { readonly allowPrivateDestinations: boolean; readonly timeoutMs: number; readonly userAgent: string };
  /** Opens a sink's sealed secrets (the service holds the secrets key). */
  readonly secretsOf: (sink: EventSinkRecord) => SinkSecrets | null;
  /** Opens a chat integration's bot token. */
  readonly tokenOf: (integration: ChatIntegrationRecord) => string;
  /** Base URLs used when the integration (chat) or deployment (pager) names none. */
  readonly chatApiUrl?: string;
  readonly pagerApiUrl?: string;
}

/**
 * Builds the Sink a delivery goes to from the sink as it is stored now (a changed URL or key
 * applies to retries too), opening its secrets only for the send. Null when the sink, or a chat
 * sink's integration, no longer exists.
 */
export function createSinkResolver(deps: SinkResolverDeps): ResolveSink {
  const http = new HttpPoster(new DestinationPolicy(deps.http.allowPrivateDestinations), { timeoutMs: deps.http.timeoutMs, userAgent: deps.http.userAgent });
  return async (tenantId, sinkId): Promise<Sink | null> => {
    const sink = await deps.store.sinks.get(tenantId, sinkId);
    if (sink === null) return null;
    const config = sink.config;
    switch (sink.type) {
      case 'Webhook': {
        const secrets = deps.secretsOf(sink);
        return new WebhookSink(
          { url: String(config.url), ...(secrets?.headers ? { headers: secrets.headers } : {}), ...(secrets?.signing_secret ? { signingSecret: secrets.signing_secret } : {}) },
          http,
          deps.clock,
        );
      }
      case 'Chat': {
        const integration = sink.chatIntegrationId === null ? null : await deps.store.chatIntegrations.get(tenantId, sink.chatIntegrationId);
        if (integration === null) return null;
        const channel = String(config.channel_id ?? config.channel ?? '');
        return new ChatSink({ apiUrl: integration.apiUrl ?? deps.chatApiUrl ?? defaultChatApiUrl, token: deps.tokenOf(integration), channel }, http, deps.clock);
      }
      case 'Pager': {
        const key = deps.secretsOf(sink)?.integration_key;
        if (key === undefined) return null;
        return new PagerSink({ apiUrl: deps.pagerApiUrl ?? defaultPagerApiUrl, integrationKey: key }, http, deps.clock);
      }
    }
  };
}
