/**
 * sinks: delivery of alerts to webhook, chat (Slack Web API) and pager (PagerDuty Events API v2)
 * destinations. Owns the Sink interface and its outcome classes (delivered / retryable /
 * permanent), each sink's wire format and default layout with its channel's length limits, the
 * retry policy, and the DestinationPolicy that decides which addresses a sink may reach (applied
 * when a sink is configured and again after DNS resolution at send time). Templates arrive
 * already rendered (detections renders them). Imports only core.
 */
export { DestinationPolicy, blockedAddressReason, blockedHostReason } from './destination-policy.js';
export { parseIpAddress, type IpAddress } from './ip-address.js';
export { actionUrl, displayInfo, pagerOverridePrefix, type AlertCell, type AlertMessage, type RenderedItem } from './alert-message.js';
export { delivered, permanent, retryable, type DeliveryOutcome, type DeliveryOutcomeKind } from './delivery-outcome.js';
export type { Sink, SinkType } from './sink.js';
export { HttpPoster, HttpPostError, type HttpPosterOptions, type HttpPostResponse } from './http-poster.js';
export { WebhookSink, webhookBody, webhookSignature, type WebhookSinkConfig } from './webhook-sink.js';
export { ChatSink, defaultChatApiUrl, type ChatSinkConfig } from './chat-sink.js';
export { chatMessage, chatLimits, type ChatMessage } from './chat-message.js';
export { PagerSink, defaultPagerApiUrl, type PagerSinkConfig } from './pager-sink.js';
export { pagerEvent, pagerSeverity, pagerLimits, type PagerSeverity } from './pager-event.js';
export { defaultRetryPolicy, retryDelayMs, type RetryPolicy } from './retry-policy.js';
export { parseRetryAfter } from './retry-after.js';
export { cutMarker, cutText } from './text-limits.js';
