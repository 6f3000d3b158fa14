/**
 * The instants an event can have: events are stored as `DateTime64(9)`, nanoseconds in a signed
 * 64-bit integer, and ClickHouse reads that type from 1900 on. No event lies outside, so a range
 * asked of the engine is first clamped to this span (its bounds also keep SQL literals in range).
 */

/** 1900-01-01T00:00:00Z: the earliest instant a `DateTime64(9)` column holds. */
export const minEventNs = -2_208_988_800_000_000_000n;

/**
 * 2262-04-11T23:47:16.854775807Z: the largest signed 64-bit nanosecond count, and the exclusive
 * end of the event span. A query range's end is exclusive and cannot go past this (SQL literals
 * stay in Int64), so no query could reach an event at this very instant: ingest refuses it as a
 * time, like any later one, and the last event time is one nanosecond earlier.
 */
export const maxEventNs = 9_223_372_036_854_775_807n;

/** True when a nanosecond instant is an event time: it fits `DateTime64(9)` and queries can reach it. */
export function inEventRange(ns: bigint): boolean {
  return ns >= minEventNs && ns < maxEventNs;
}

/**
 * The part of `[startNs, endNs)` where events can lie: both ends moved into the event span. A
 * range wholly outside comes back empty (`startNs === endNs`) at the nearer end of the span. The
 * end stays exclusive, so the one last representable nanosecond is never in a clamped range
 * (and never an event time: `inEventRange`).
 */
export function clampToEventSpan(range: { readonly startNs: bigint; readonly endNs: bigint }): { startNs: bigint; endNs: bigint } {
  const clamp = (ns: bigint): bigint => (ns < minEventNs ? minEventNs : ns > maxEventNs ? maxEventNs : ns);
  return { startNs: clamp(range.startNs), endNs: clamp(range.endNs) };
}
