/**
 * domain: the nouns of rules, sinks and alerts that store, sinks, detections, services and api
 * share — enabled state, severity, alert template, event sink type, and the alert message the
 * outbox stores and every sink receives. Types only; imports nothing.
 */
export type { AlertTemplateRecord, EnabledState, Severity } from './detection-rule.js';
export type { EventSinkType } from './event-sink-type.js';
export type { AlertCell, AlertMessage, RenderedItem } from './alert-message.js';
