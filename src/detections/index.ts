/**
 * detections: the rule and sink model — severities and their alias, enabled states, alert
 * templates (both forms, `{{ }}` expressions), the checks a rule's fields and query must pass,
 * the event sink arguments with their public/secret split — and the engine that runs rules:
 * template rendering over `@alert` (E9), window evaluation with debounce and dedup (E4-E7), the
 * scheduler (E1-E3) and the delivery worker (E13), and rule files (YAML, E14-E15) with what their
 * tests need. Imports core, query, store and sinks; it is
 * given `runQuery`, the `_detections` writer, sink resolution and the clock as arguments.
 */
export { severities, severityInputs } from './severity.js';
export { enabledStates, effectiveState, isEnabled } from './enabled-state.js';
export type { AlertTemplateInput } from './alert-template.js';
export { checkRuleQuery, indexesNamedIn, lookupTablesNamedIn } from './rule-query-check.js';
export { checkRuleFields, checkRequiredRuleFields, ruleFieldNames, type RuleFieldsInput } from './rule-input.js';
export { EventSinkArgsChecker, eventSinkTypes, type EventSinkArgsInput, type SinkSecrets } from './event-sink-args.js';
export type { QueryRows, ResultRow, RunQuery, WindowQuery } from './run-query.js';
export { WindowQueryBatcher } from './window-query-batcher.js';
export { rowIdentity } from './row-identity.js';
export type { DetectionMetrics } from './detection-metrics.js';
export { countPreviewWindows, maxPreviewWindows, previewRule, previewWindows, type PreviewedWindow, type PreviewWindowResult, type RulePreview } from './rule-preview.js';
export type { RuleWindow } from './evaluate-window.js';
export { RuleScheduler, defaultSchedulerSettings, type SchedulerSettings, type WriteDetections } from './rule-scheduler.js';
export { WorkLeases } from './work-leases.js';
export { DeliveryWorker, defaultDeliverySettings, type DeliverySettings } from './delivery-worker.js';
export { createSinkResolver } from './sink-resolver.js';
export type { AlertMessage, DeliveryOutcome, Sink, SinkType } from '../sinks/index.js';
// Rule files (YAML): the definition model, reader, printer, conversions, JSON Schema, test windows.
export * from './rule-file/index.js';
