/**
 * detections: the rule and sink model — severities and their alias, enabled states, alert
 * templates (both forms, `{{ }}` expressions), the checks a rule's fields and query must pass,
 * the event sink arguments with their public/secret split — and the engine that runs rules:
 * template rendering over `@alert` (E9), window evaluation with debounce and dedup (E4-E7), the
 * scheduler (E1-E3) and the delivery worker (E13), and rule files (YAML, E14-E15) with what their
 * tests need. Imports core, query, store and sinks; it is
 * given `runQuery`, the `_detections` writer, sink resolution and the clock as arguments.
 */
export { severities, severityIds, severityInputs, normalizeSeverity } from './severity.js';
export { enabledStates, effectiveState, isEnabled } from './enabled-state.js';
export { normalizeAlertTemplate, alertTemplateLimits, type AlertTemplateInput, type InfoItemInput, type ActionItemInput } from './alert-template.js';
export { splitTemplate, checkTemplateValue, type TemplatePart } from './template-expressions.js';
export { checkRuleQuery, indexesNamedIn, maxQueryTextLength } from './rule-query-check.js';
export {
  checkRuleFields,
  checkRequiredRuleFields,
  requiredRuleFields,
  ruleFieldNames,
  ruleLimits,
  type CheckedRuleFields,
  type RuleFieldsInput,
} from './rule-input.js';
export {
  EventSinkArgsChecker,
  eventSinkTypes,
  maskSecret,
  type ChatArgsInput,
  type CheckedSinkArgs,
  type EventSinkArgsInput,
  type PagerArgsInput,
  type SinkSecrets,
  type WebhookArgsInput,
} from './event-sink-args.js';
export { alertField } from './alert-fields.js';
export { renderAlertTemplate, renderTemplateValue, type RenderedInfoItem, type RenderedTemplate } from './render-template.js';
export type { QueryRows, ResultRow, RunQuery, WindowQuery } from './run-query.js';
export { rowIdentity, rowIdentityPlan, type RowIdentityPlan } from './row-identity.js';
export { detectionEvent } from './detection-event.js';
export {
  alertTableRows,
  dedupKeyOf,
  evaluateWindow,
  type EvaluationDeps,
  type PlannedAlert,
  type RuleMemory,
  type RuleWindow,
  type WindowEvaluation,
} from './evaluate-window.js';
export { noDetectionMetrics, type AlertOutcome, type DetectionMetrics, type RunOutcome } from './detection-metrics.js';
export { planWindows, type WindowPlan, type WindowTiming } from './window-plan.js';
export { windowCommit } from './window-commit.js';
export { RuleScheduler, defaultSchedulerSettings, type SchedulerDeps, type SchedulerRound, type SchedulerSettings, type WriteDetections } from './rule-scheduler.js';
export { DeliveryWorker, defaultDeliverySettings, type DeliverySettings, type DeliveryWorkerDeps, type ResolveSink } from './delivery-worker.js';
export { createSinkResolver, type SinkResolverDeps } from './sink-resolver.js';
export type { AlertMessage, DeliveryOutcome, Sink, SinkType } from '../sinks/index.js';
// Rule files (YAML): the definition model, reader, printer, conversions, JSON Schema, test windows.
export * from './rule-file/index.js';
