import { parseRfc3339Ns } from '../../core/index.js';
import type { DatasetFormat } from './rule-definition.js';

/** Fields an event's time is read from, in order (E15); RFC 3339 text. */
export const testEventTimeFields = ['@svc.datetime', '@scnr.datetime', 'timestamp'] as const;
/** Fields an event's `@svc.source_type` is read from, in order (query-language D1). */
export const testSourceTypeFields = ['@svc.source_type', '@scnr.source_type', '%ingest.source_type'] as const;
export const defaultTestSourceType = 'custom:generic';
/** More events than a test needs to make its point; keeps a file from loading a data set. */
export const maxTestEvents = 10_000;

/** One event of a test dataset with what the test needs to know about it. */
export interface DatasetEvent {
  /** 1-based line within `dataset_inline`. */
  readonly line: number;
  /** The line as written: the event's raw JSON. */
  readonly text: string;
  readonly timeNs: bigint;
  readonly sourceType: string;
}

/** A problem of one dataset line; `column` is 1-based within the line. */
export interface DatasetProblem {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/**
 * Reads a test's `dataset_inline` (detections.md 3.3): one JSON object per non-blank line. Every
 * event needs a time (E15: `@svc.datetime`, `@scnr.datetime` or a top-level `timestamp`, RFC 3339)
 * so a test means the same thing whenever it runs. Reserved fields may be written flat
 * (`"@scnr.datetime"`) or nested (`"@scnr": {"datetime"}`): both name the same column once
 * flattened (D3). `FlatTable` lines must be flat: a nested object or array is refused.
 */
export function readDataset(text: string, format: DatasetFormat): { events: DatasetEvent[]; problems: DatasetProblem[] } {
  const events: DatasetEvent[] = [];
  const problems: DatasetProblem[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] ?? '').replace(/\r$/, '');
    if (raw.trim() === '') continue;
    const line = i + 1;
    const column = raw.length - raw.trimStart().length + 1;
    const problem = (message: string, at = column): void => void problems.push({ line, column: at, message });
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      const position = /position (\d+)/.exec((error as Error).message)?.[1];
      problem(
        `invalid JSON: ${(error as Error).message.replace(/ in JSON at position \d+.*$/, '').replace(/^./, (c) => c.toLowerCase())}`,
        position === undefined ? column : Number(position) + 1,
      );
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      problem(`an event must be a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`);
      continue;
    }
    const event = value as Record<string, unknown>;
    if (format === 'FlatTable') {
      const nested = Object.keys(event).find((key) => event[key] !== null && typeof event[key] === 'object');
      if (nested !== undefined) {
        problem(
          `FlatTable events are flat column maps: ${JSON.stringify(nested)} holds ${Array.isArray(event[nested]) ? 'an array' : 'an object'}; write its columns as "${nested}.x" keys or use dataset_format: RawJson`,
        );
        continue;
      }
    }
    const time = eventTime(event);
    if (typeof time === 'string') {
      problem(time);
      continue;
    }
    const sourceType = firstValue(event, testSourceTypeFields);
    if (sourceType !== undefined && typeof sourceType.value !== 'string') {
      problem(`${sourceType.field} must be a string, got ${JSON.stringify(sourceType.value)}`);
      continue;
    }
    if (events.length === maxTestEvents) {
      problem(`a test holds at most ${maxTestEvents} events`);
      break;
    }
    events.push({ line, text: raw, timeNs: time, sourceType: (sourceType?.value as string | undefined) ?? defaultTestSourceType });
  }
  return { events, problems };
}

/** The event's time in nanoseconds, or the reason it has none. */
function eventTime(event: Record<string, unknown>): bigint | string {
  const found = firstValue(event, testEventTimeFields);
  if (found === undefined) return `the event has no time: give @scnr.datetime (or @svc.datetime, or a top-level timestamp) as RFC 3339`;
  const ns = typeof found.value === 'string' ? parseRfc3339Ns(found.value) : null;
  if (ns === null) return `${found.field} must be an RFC 3339 time such as "2026-05-15T00:02:30Z", got ${JSON.stringify(found.value)}`;
  return ns;
}

/** The first of `fields` the event holds (flat key or nested path), with its value. */
function firstValue(event: Record<string, unknown>, fields: readonly string[]): { field: string; value: unknown } | undefined {
  for (const field of fields) {
    const value = valueAt(event, field.split('.'));
    if (value !== undefined && value !== null) return { field, value };
  }
  return undefined;
}

/** The value at a dotted path whose parts may be written nested or as one dotted key. */
function valueAt(object: Record<string, unknown>, parts: readonly string[]): unknown {
  for (let n = parts.length; n >= 1; n--) {
    const key = parts.slice(0, n).join('.');
    if (!Object.hasOwn(object, key)) continue;
    const value = object[key];
    if (n === parts.length) return value;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const found = valueAt(value as Record<string, unknown>, parts.slice(n));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
