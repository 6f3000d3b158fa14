import type { Clock } from '../core/index.js';
import { createSinkResolver } from '../detections/index.js';
import type { Store } from '../store/index.js';
import type { ChatIntegrationService } from './chat-integration-service.js';
import type { EventSinkService } from './event-sink-service.js';

export interface SinkResolverWiring {
  readonly store: Store;
  readonly clock: Clock;
  readonly sinks: EventSinkService;
  readonly chatIntegrations: ChatIntegrationService;
  readonly allowPrivateDestinations: boolean;
}

/**
 * The sinks alerts are sent through, built from the stored sink at send time with the
 * deployment's sender settings: the delivery worker and the sink test send the same way.
 */
/** The deployment's sender settings (a part of DetectionEngineSettings). */
export interface SenderSettings {
  /** One send's time limit. */
  readonly sendTimeoutMs: number;
  readonly userAgent: string;
  readonly chatApiUrl: string | null;
  readonly pagerApiUrl: string | null;
}

export function deploymentSinkResolver(deps: SinkResolverWiring, settings: SenderSettings) {
  return createSinkResolver({
    store: deps.store,
    clock: deps.clock,
    http: { allowPrivateDestinations: deps.allowPrivateDestinations, timeoutMs: settings.sendTimeoutMs, userAgent: settings.userAgent },
    secretsOf: (sink) => deps.sinks.secretsOf(sink),
    tokenOf: (integration) => deps.chatIntegrations.tokenOf(integration),
    ...(settings.chatApiUrl ? { chatApiUrl: settings.chatApiUrl } : {}),
    ...(settings.pagerApiUrl ? { pagerApiUrl: settings.pagerApiUrl } : {}),
  });
}
