import { ValidationError } from '../core/index.js';
import type { AlertTemplateRecord } from '../domain/index.js';
import { pagerOverridePathProblem, pagerOverridePrefix, pagerOverrideValueProblem } from '../sinks/index.js';
import { checkTemplateValue } from './template-expressions.js';

/** An info item in either form: `{label, value, use_for_dedup}` or the deprecated `[label, value]`. */
export type InfoItemInput = { readonly label: string; readonly value: string; readonly use_for_dedup?: boolean } | readonly string[];
/** An action in either form: `{label, value}` or the deprecated `[label, value]`. */
export type ActionItemInput = { readonly label: string; readonly value: string } | readonly string[];

/** An alert template as a client sends it (docs/interface.md 2.6); each array defaults to empty. */
export interface AlertTemplateInput {
  readonly info?: readonly InfoItemInput[];
  readonly actions?: readonly ActionItemInput[];
}

export const alertTemplateLimits = { info: 50, actions: 20, label: 256, value: 4096 } as const;

/**
 * Checks a template and converts it to the current form. The deprecated pair-array form is
 * accepted item by item (a template may mix both); a pair becomes `{label, value}` with
 * `use_for_dedup` false. Every value's `{{ }}` expressions must parse, and an info item labelled
 * `@pagerduty.<path>` must set a path the pager event can take. ValidationError naming the item
 * (`alert_template.info[2].value`).
 */
export function normalizeAlertTemplate(input: AlertTemplateInput, field = 'alert_template'): AlertTemplateRecord {
  const info = input.info ?? [];
  const actions = input.actions ?? [];
  if (info.length > alertTemplateLimits.info) throw new ValidationError(`${field}.info must have at most ${alertTemplateLimits.info} items`, { field: `${field}.info` });
  if (actions.length > alertTemplateLimits.actions) {
    throw new ValidationError(`${field}.actions must have at most ${alertTemplateLimits.actions} items`, { field: `${field}.actions` });
  }
  return {
    info: info.map((item, i) => {
      const where = `${field}.info[${i}]`;
      const { label, value } = pairOf(item, where);
      if (label.startsWith(pagerOverridePrefix)) checkPagerOverride(label, value, where);
      const useForDedup = isPair(item) ? false : (item.use_for_dedup ?? false);
      return { label, value, useForDedup };
    }),
    actions: actions.map((item, i) => pairOf(item, `${field}.actions[${i}]`)),
  };
}

function isPair(item: InfoItemInput | ActionItemInput): item is readonly string[] {
  return Array.isArray(item);
}

function pairOf(item: InfoItemInput | ActionItemInput, where: string): { label: string; value: string } {
  let label: unknown;
  let value: unknown;
  if (isPair(item)) {
    if (item.length !== 2) throw new ValidationError(`${where} must be a [label, value] pair`, { field: where });
    [label, value] = item;
  } else {
    ({ label, value } = item as { label: unknown; value: unknown });
  }
  if (typeof label !== 'string' || label.trim() === '' || label.length > alertTemplateLimits.label) {
    throw new ValidationError(`${where}.label must be a non-empty string of at most ${alertTemplateLimits.label} characters`, { field: `${where}.label` });
  }
  if (typeof value !== 'string' || value.length > alertTemplateLimits.value) {
    throw new ValidationError(`${where}.value must be a string of at most ${alertTemplateLimits.value} characters`, { field: `${where}.value` });
  }
  checkTemplateValue(value, `${where}.value`);
  return { label, value };
}

/**
 * An info item that overrides the pager event (detections.md E12) must name a path the event can
 * take; a value without `{{ }}` is known now and must be one PagerDuty accepts there. A value
 * rendered per alert is checked again when the event is built (an invalid one is left out).
 */
function checkPagerOverride(label: string, value: string, where: string): void {
  const path = label.slice(pagerOverridePrefix.length);
  const pathProblem = pagerOverridePathProblem(path);
  if (pathProblem !== null)
    throw new ValidationError(`${where}.label ${JSON.stringify(label)}: ${path === '' ? 'names no field' : `${path} ${pathProblem}`}`, { field: `${where}.label` });
  if (value.includes('{{')) return;
  const valueProblem = pagerOverrideValueProblem(path, value);
  if (valueProblem !== null) throw new ValidationError(`${where}.value (${label}) ${valueProblem}`, { field: `${where}.value` });
}
