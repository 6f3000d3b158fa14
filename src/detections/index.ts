/**
 * detections: the rule and sink model (checks, templates, sink arguments, rule files) and the
 * engine that runs rules — window evaluation with debounce and dedup, scheduler, delivery worker.
 * Imports core, domain, query, store and sinks; `runQuery`, the `_detections` writer, sink
 * resolution and the clock arrive as arguments.
 */
export { severities, severityInputs } from './severity.js';
export { enabledStates, effectiveState, isEnabled } from './enabled-state.js';
export type { AlertTemplateInput } from './alert-template.js';
export { checkRuleQuery, indexesNamedIn, lookupTablesNamedIn } from './rule-query-check.js';
export { checkRuleFields, checkRequiredRuleFields, ruleFieldNames, type RuleFieldsInput } from './rule-input.js';
export { EventSinkArgsChecker, eventSinkTypes, type EventSinkArgsInput, type SinkSecrets } from './event-sink-args.js';
export type { QueryRows, ResultRow, RunQuery, WindowQuery } from './run-query.js';
export { WindowQueryBatcher } from './window-query-batcher.js';
export type { DetectionMetrics } from './detection-metrics.js';
export { countPreviewWindows, maxPreviewWindows, previewRule, previewWindows, type PreviewedWindow, type PreviewWindowResult, type RulePreview } from './rule-preview.js';
export type { RuleWindow } from './evaluate-window.js';
export { RuleScheduler, defaultSchedulerSettings, type SchedulerSettings, type WriteDetections } from './rule-scheduler.js';
export { WorkLeases } from './work-leases.js';
export { DeliveryWorker, defaultDeliverySettings, type DeliverySettings } from './delivery-worker.js';
export { createSinkResolver } from './sink-resolver.js';
export type { DeliveryOutcome, Sink } from '../sinks/index.js';
// Rule files (YAML): the definition model, reader, printer, conversions, JSON Schema, test windows.
export * from './rule-file/index.js';
