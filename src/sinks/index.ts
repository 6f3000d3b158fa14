/**
 * sinks: delivery of alerts to webhook, chat (Slack Web API) and pager (PagerDuty Events API v2)
 * destinations. Owns the Sink interface and its outcome classes (delivered / retryable /
 * permanent), each sink's wire format and default layout with its channel's length limits, the
 * retry policy, and the DestinationPolicy that decides which addresses a sink may reach (applied
 * when a sink is configured and again after DNS resolution at send time). Templates arrive
 * already rendered (detections renders them). Imports only core.
 */
export { DestinationPolicy } from './destination-policy.js';
export type { AlertMessage, RenderedItem } from './alert-message.js';
export { delivered, permanent, retryable, type DeliveryOutcome } from './delivery-outcome.js';
export type { Sink, SinkType } from './sink.js';
export { HttpPoster } from './http-poster.js';
export { WebhookSink } from './webhook-sink.js';
export { ChatSink, defaultChatApiUrl } from './chat-sink.js';
export { PagerSink, defaultPagerApiUrl } from './pager-sink.js';
export { pagerOverridePathProblem, pagerOverridePaths, pagerOverrideValueProblem } from './pager-event.js';
export { pagerOverridePrefix } from './alert-message.js';
export { defaultRetryPolicy, retryDelayMs, type RetryPolicy } from './retry-policy.js';
