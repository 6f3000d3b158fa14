import { assertNever } from '../core/index.js';
import type { AlertMessage, AlertTemplateRecord, RenderedItem } from '../domain/index.js';
import { evaluateScalar, parseScalar, plainColumnName, valueText, type Scalar, type ScalarValue, type TableValue } from '../query/index.js';
import { alertField } from './alert-fields.js';
import { splitTemplate } from './template-expressions.js';

/** A rendered info item; `useForDedup` items make the dedup key (E6). */
export interface RenderedInfoItem extends RenderedItem {
  readonly useForDedup: boolean;
}

export interface RenderedTemplate {
  readonly info: readonly RenderedInfoItem[];
  readonly actions: readonly RenderedItem[];
}

/** Renders every info item and action of a rule's template over the alert; no template, nothing. */
export function renderAlertTemplate(template: AlertTemplateRecord | null, alert: AlertMessage): RenderedTemplate {
  if (template === null) return { info: [], actions: [] };
  return {
    info: template.info.map((item) => ({ label: item.label, value: renderTemplateValue(item.value, alert), useForDedup: item.useForDedup })),
    actions: template.actions.map((item) => ({ label: item.label, value: renderTemplateValue(item.value, alert) })),
  };
}

/**
 * Replaces each `{{ expr }}` of a template value by the scalar expression's value over the alert
 * (detections.md E9), with the query language's evaluator. A missing value, an expression that
 * cannot be evaluated, or one the rule check would have refused renders as an empty string.
 */
export function renderTemplateValue(value: string, alert: AlertMessage): string {
  const split = splitTemplate(value);
  if ('unclosedAt' in split) return value;
  return split.parts.map((part) => (part.kind === 'text' ? part.text : renderExpression(part.text, alert))).join('');
}

function renderExpression(text: string, alert: AlertMessage): string {
  const expr = parsed(text);
  if (expr === null) return '';
  const row: Record<string, TableValue> = Object.create(null) as Record<string, TableValue>;
  for (const name of columnNames(expr)) row[name] = alertField(alert, name);
  try {
    return scalarText(evaluateScalar(expr, row));
  } catch {
    return '';
  }
}

function scalarText(value: ScalarValue): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return String(value);
  return valueText(value);
}

/** The plain column names an expression reads (wildcard names read nothing: they render empty). */
function columnNames(expr: Scalar, into: Set<string> = new Set()): Set<string> {
  switch (expr.kind) {
    case 'columnRef': {
      const name = plainColumnName(expr.column);
      if (name !== null) into.add(name);
      break;
    }
    case 'unary':
      columnNames(expr.operand, into);
      break;
    case 'binary':
      columnNames(expr.left, into);
      columnNames(expr.right, into);
      break;
    case 'scalarCall':
      for (const arg of expr.args) columnNames(arg, into);
      break;
    case 'literal':
      break;
    default:
      assertNever(expr, 'scalar');
  }
  return into;
}

// Templates are rendered for every alert; their few distinct expressions parse once.
const cache = new Map<string, Scalar | null>();

function parsed(text: string): Scalar | null {
  let expr = cache.get(text);
  if (expr === undefined) {
    expr = parseScalar(text).expr;
    if (cache.size >= 2000) cache.clear();
    cache.set(text, expr);
  }
  return expr;
}
