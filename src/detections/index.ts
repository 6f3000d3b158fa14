/**
 * detections: the rule and sink model — severities and their alias, enabled states, alert
 * templates (both forms, `{{ }}` expressions), the checks a rule's fields and query must pass,
 * and the event sink arguments with their public/secret split. The scheduler, evaluator and
 * outbox worker of later issues live here too. Imports core, query, store and sinks.
 */
export { severities, severityIds, severityInputs, normalizeSeverity } from './severity.js';
export { enabledStates, effectiveState, isEnabled } from './enabled-state.js';
export { normalizeAlertTemplate, alertTemplateLimits, type AlertTemplateInput, type InfoItemInput, type ActionItemInput } from './alert-template.js';
export { splitTemplate, checkTemplateValue, type TemplatePart } from './template-expressions.js';
export { checkRuleQuery, maxQueryTextLength } from './rule-query-check.js';
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
