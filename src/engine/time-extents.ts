/**
 * Time extents: per index, a span that holds every event time ever written to it. Inserts widen
 * them before they write (TableBackedEngine.insertEvents), so a query whose range holds an
 * index's whole span can leave out the time bounds, which cost every aggregation over a whole
 * index a read and a comparison of each event's `ts` (docs/engine.md).
 */
import { floorDiv, maxEventNs, minEventNs } from '../core/index.js';
import type { EventRowInput, TimeExtent, TimeSpan } from './engine.js';

/** The extents of some events' times, one per (tenant, index). */
export function timeExtentsOf(rows: Iterable<Pick<EventRowInput, 'tenant' | 'indexId' | 'tsNs'>>): TimeExtent[] {
  const extents = new Map<string, { tenant: string; indexId: string; minTsNs: bigint; maxTsNs: bigint }>();
  for (const { tenant, indexId, tsNs } of rows) {
    const key = `${tenant}\u0000${indexId}`;
    const extent = extents.get(key);
    if (extent === undefined) extents.set(key, { tenant, indexId, minTsNs: tsNs, maxTsNs: tsNs });
    else {
      if (tsNs < extent.minTsNs) extent.minTsNs = tsNs;
      if (tsNs > extent.maxTsNs) extent.maxTsNs = tsNs;
    }
  }
  return [...extents.values()];
}

/** The smallest span holding both (null: neither holds an event). */
export function joinSpans(a: TimeSpan | null, b: TimeSpan | null): TimeSpan | null {
  if (a === null) return b === null ? null : { minTsNs: b.minTsNs, maxTsNs: b.maxTsNs };
  if (b === null) return a;
  return { minTsNs: a.minTsNs < b.minTsNs ? a.minTsNs : b.minTsNs, maxTsNs: a.maxTsNs > b.maxTsNs ? a.maxTsNs : b.maxTsNs };
}

const minuteNs = 60_000_000_000n;

/** The extent widened to whole minutes (UTC), within the span of event times (core/event-time-span.ts). */
export function toWholeMinutes(extent: TimeExtent): TimeExtent {
  const down = floorDiv(extent.minTsNs, minuteNs) * minuteNs;
  const up = -floorDiv(-extent.maxTsNs, minuteNs) * minuteNs;
  return { ...extent, minTsNs: down < minEventNs ? extent.minTsNs : down, maxTsNs: up > maxEventNs ? maxEventNs : up };
}
