/** The system columns every event carries (D4) and how they are told apart from user columns. */
import { formatRfc3339Ns } from '../../core/index.js';
import type { EvalEvent, TableValue } from './eval-table.js';

/**
 * Whether a name is a system column's, which free text never searches (D13): `@svc.*`,
 * `@index` and `@index_id`.
 */
export function isSystemColumnName(name: string): boolean {
  return name.startsWith('@svc.') || name === '@index' || name === '@index_id';
}

/**
 * The system columns of an event, `@svc.datetime` first. The raw table puts them after the
 * user columns except `@svc.datetime`, which D28 lists first.
 */
export function systemColumnsOf(event: EvalEvent): Array<readonly [string, TableValue]> {
  return [
    ['@svc.datetime', formatEventDatetime(event.tsNs)],
    ['@svc.time_ns', event.tsNs.toString()],
    ['@svc.source_type', event.sourceType],
    ['@index', event.indexName],
    ['@index_id', event.indexId],
  ];
}

/**
 * RFC 3339 in UTC with exactly nine fractional digits (`2026-11-21T10:00:00.123456789Z`);
 * seconds are floored, so pre-1970 times keep a non-negative fraction.
 */
export function formatEventDatetime(tsNs: bigint): string {
  return formatRfc3339Ns(tsNs);
}
