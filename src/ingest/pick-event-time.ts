import type { Clock } from '../core/index.js';
import type { FlatValue } from './flatten-event.js';
import { parseTimestamp } from './parse-timestamp.js';

/** The event time and where it came from (`''` when ingest time was used). */
export interface EventTime {
  readonly tsNs: bigint;
  readonly tsField: string;
}

/**
 * Chooses the event time: the first of `fields` (flattened paths) present with a parsable value,
 * else the ingest time from the clock with `tsField: ''`. A field that is present but unparsable
 * does not stop the search.
 */
export function pickEventTime(attrs: Record<string, FlatValue>, fields: readonly string[], clock: Clock): EventTime {
  return pickEventTimeOf(
    fields.map((field) => (Object.hasOwn(attrs, field) ? attrs[field] : undefined)),
    fields,
    clock,
  );
}

/** `pickEventTime` given the value of each of `fields` in turn (undefined where the event has none). */
export function pickEventTimeOf(values: readonly (FlatValue | undefined)[], fields: readonly string[], clock: Clock): EventTime {
  let nowMs = -1;
  for (let i = 0; i < fields.length; i++) {
    const value = values[i];
    if (value === undefined) continue;
    if (nowMs < 0) nowMs = clock.nowMs();
    const tsNs = parseTimestamp(value, nowMs);
    if (tsNs !== null) return { tsNs, tsField: fields[i] as string };
  }
  return { tsNs: BigInt(Math.trunc(nowMs < 0 ? clock.nowMs() : nowMs)) * 1_000_000n, tsField: '' };
}
