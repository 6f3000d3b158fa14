import { actionUrl, displayInfo, isoOfNs, pagerOverridePrefix, type AlertMessage } from './alert-message.js';
import { cutText } from './text-limits.js';

/** PagerDuty Events API v2 limits (developer-docs, events-API-v2). */
export const pagerLimits = { summary: 1024, dedupKey: 255, payloadBytes: 512 * 1024, rows: 10, detailText: 1000 } as const;

/** PagerDuty accepts only these severities. */
export type PagerSeverity = 'critical' | 'error' | 'warning' | 'info';

/** detections.md E12: Critical and Fatal → critical, High → error, Medium → warning, others → info. */
export function pagerSeverity(severity: string): PagerSeverity {
  switch (severity) {
    case 'Critical':
    case 'Fatal':
      return 'critical';
    case 'High':
      return 'error';
    case 'Medium':
      return 'warning';
    default:
      return 'info';
  }
}

// Overrides may not redirect the event to another service or reach object internals.
const forbiddenOverrides = new Set(['routing_key', '__proto__', 'prototype', 'constructor']);

/**
 * The Events API v2 trigger of detections.md E12, with the template's `@pagerduty.<path>` items
 * applied last (`@pagerduty.payload.severity` = `error` sets `payload.severity`). The routing key
 * cannot be overridden. The event is kept under PagerDuty's 512 KB by showing fewer rows, then
 * shorter detail values.
 */
export function pagerEvent(alert: AlertMessage, routingKey: string): Record<string, unknown> {
  for (const rows of [pagerLimits.rows, 1, 0]) {
    const event = buildEvent(alert, routingKey, rows, Number.POSITIVE_INFINITY);
    if (Buffer.byteLength(JSON.stringify(event)) <= pagerLimits.payloadBytes) return event;
  }
  return buildEvent(alert, routingKey, 0, pagerLimits.detailText);
}

function buildEvent(alert: AlertMessage, routingKey: string, rows: number, maxDetail: number): Record<string, unknown> {
  const details: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  details.window = { start: alert.window.start, end: alert.window.end };
  details.row_count = alert.resultsTable.totalRowCount;
  details.rows = alert.resultsTable.rows.slice(0, rows);
  for (const item of displayInfo(alert)) details[item.label] = cutText(item.value, maxDetail);
  const links = alert.actions.flatMap((action) => {
    const href = actionUrl(action.value);
    return href === null ? [] : [{ href, text: action.label }];
  });
  const event: Record<string, unknown> = {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: alert.detectionRuleId,
    payload: {
      summary: cutText(alert.name, pagerLimits.summary),
      source: 'vigil',
      severity: pagerSeverity(alert.severity),
      timestamp: isoOfNs(alert.timestampNs),
      custom_details: { ...details },
    },
    ...(links.length > 0 ? { links } : {}),
    client: 'Vigil',
  };
  for (const item of alert.info) {
    if (!item.label.startsWith(pagerOverridePrefix)) continue;
    setPath(event, item.label.slice(pagerOverridePrefix.length).split('.'), item.value);
  }
  const payload = event.payload as Record<string, unknown>;
  if (typeof payload.summary === 'string') payload.summary = cutText(payload.summary, pagerLimits.summary);
  if (typeof event.dedup_key === 'string') event.dedup_key = event.dedup_key.slice(0, pagerLimits.dedupKey);
  return event;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: string): void {
  if (path.length === 0 || path.some((part) => part === '' || forbiddenOverrides.has(part))) return;
  let at: Record<string, unknown> = target;
  for (const part of path.slice(0, -1)) {
    const next = at[part];
    if (typeof next === 'object' && next !== null) at = next as Record<string, unknown>;
    else {
      const created: Record<string, unknown> = {};
      at[part] = created;
      at = created;
    }
  }
  at[path[path.length - 1] as string] = value;
}
