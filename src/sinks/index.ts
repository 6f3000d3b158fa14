/**
 * sinks: delivery of rendered alerts to webhook, chat and pager destinations — the Sink interface
 * and its outcomes, each wire format and layout, the retry policy, and the DestinationPolicy that
 * decides which addresses a sink may reach. Imports core and domain (the alert message).
 */
export { DestinationPolicy } from './destination-policy.js';
export { delivered, permanent, retryable, type DeliveryOutcome } from './delivery-outcome.js';
export type { Sink } from './sink.js';
export { HttpPoster } from './http-poster.js';
export { WebhookSink } from './webhook-sink.js';
export { ChatSink, defaultChatApiUrl } from './chat-sink.js';
export { PagerSink, defaultPagerApiUrl } from './pager-sink.js';
export { pagerOverridePathProblem, pagerOverridePaths, pagerOverrideValueProblem } from './pager-event.js';
export { pagerOverridePrefix } from './alert-display.js';
export { defaultRetryPolicy, retryDelayMs, type RetryPolicy } from './retry-policy.js';
