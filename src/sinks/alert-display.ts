import type { AlertMessage, RenderedItem } from '../domain/index.js';

/** The label prefix of template items that override the pager event (detections.md E12). */
export const pagerOverridePrefix = '@pagerduty.';

/** Info items meant for people: every item except the pager overrides. */
export function displayInfo(alert: AlertMessage): RenderedItem[] {
  return alert.info.filter((item) => !item.label.startsWith(pagerOverridePrefix));
}

/** The URL an action's value holds, or null when it is not an http(s) URL (then it is shown as text). */
export function actionUrl(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** RFC 3339 with milliseconds of a nanosecond timestamp given as decimal text. */
export function isoOfNs(ns: string): string {
  return new Date(Number(BigInt(ns) / 1_000_000n)).toISOString();
}
