import type { AlertMessage } from '../domain/index.js';
import { actionUrl, displayInfo, isoOfNs, pagerOverridePrefix } from './alert-display.js';
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

/**
 * The paths a `@pagerduty.<path>` template item may set: the string fields of an Events API v2
 * trigger, plus any key under `payload.custom_details`. Not `routing_key` (a rule must not page
 * another service), `event_action` (Vigil only triggers), `payload`, `payload.custom_details`,
 * `links` or `images` themselves (a string in place of an object or list is an invalid event).
 */
export const pagerOverridePaths = [
  'dedup_key',
  'client',
  'client_url',
  'payload.summary',
  'payload.source',
  'payload.severity',
  'payload.timestamp',
  'payload.component',
  'payload.group',
  'payload.class',
] as const;
const customDetailsPrefix = 'payload.custom_details.';
const pagerSeverities: readonly string[] = ['critical', 'error', 'warning', 'info'];
// Keys that would reach object internals rather than set a field.
const objectInternals = new Set(['__proto__', 'prototype', 'constructor']);
const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Why `@pagerduty.<path>` cannot be set (a lower-case reason), or null when it can. */
export function pagerOverridePathProblem(path: string): string | null {
  if ((pagerOverridePaths as readonly string[]).includes(path)) return null;
  if (path.startsWith(customDetailsPrefix)) {
    const keys = path.slice(customDetailsPrefix.length).split('.');
    if (keys.every((key) => key !== '' && !objectInternals.has(key))) return null;
  }
  return `cannot be set in a pager event: only ${pagerOverridePaths.join(', ')} and payload.custom_details.<key> can`;
}

/** Why a value would make `path` invalid in the event (PagerDuty answers 400), or null. */
export function pagerOverrideValueProblem(path: string, value: string): string | null {
  switch (path) {
    case 'payload.severity':
      return pagerSeverities.includes(value) ? null : `must be one of ${pagerSeverities.join(', ')}, got ${JSON.stringify(value)}`;
    case 'payload.summary':
    case 'payload.source':
      return value.trim() === '' ? 'must not be empty' : null;
    case 'payload.timestamp':
      return isoDateTime.test(value) && !Number.isNaN(Date.parse(value)) ? null : `must be an ISO 8601 time such as 2026-05-15T00:03:00Z, got ${JSON.stringify(value)}`;
    default:
      return null;
  }
}

/**
 * The Events API v2 trigger of detections.md E12, with the template's `@pagerduty.<path>` items
 * applied last (`@pagerduty.payload.severity` = `error` sets `payload.severity`). Only the paths
 * of `pagerOverridePaths` are set, and only with a value PagerDuty accepts: templates are checked
 * when saved, but a rendered value (or a rule saved before the check) may still be wrong, and a
 * default field is better than an event refused with 400. The event is kept under PagerDuty's
 * 512 KB by showing fewer rows, then shorter detail values.
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
    const path = item.label.slice(pagerOverridePrefix.length);
    if (pagerOverridePathProblem(path) !== null || pagerOverrideValueProblem(path, item.value) !== null) continue;
    setPath(event, path.split('.'), item.value);
  }
  const payload = event.payload as Record<string, unknown>;
  if (typeof payload.summary === 'string') payload.summary = cutText(payload.summary, pagerLimits.summary);
  if (typeof event.dedup_key === 'string') event.dedup_key = event.dedup_key.slice(0, pagerLimits.dedupKey);
  return event;
}

/** Sets a path that pagerOverridePathProblem allowed: its objects exist or are made. */
function setPath(target: Record<string, unknown>, path: readonly string[], value: string): void {
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
