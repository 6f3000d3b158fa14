/**
 * The instants an event can have: events are stored as `DateTime64(9)`, nanoseconds in a signed
 * 64-bit integer, and ClickHouse reads that type from 1900 on. No event lies outside, so a range
 * asked of the engine is first clamped to this span (its bounds also keep SQL literals in range).
 */

/** 1900-01-01T00:00:00Z: the earliest instant a `DateTime64(9)` column holds. */
export const minEventNs = -2_208_988_800_000_000_000n;

/** 2262-04-11T23:47:16.854775807Z: the largest signed 64-bit nanosecond count. */
export const maxEventNs = 9_223_372_036_854_775_807n;

/** True when a nanosecond instant fits a `DateTime64(9)` column. */
export function inEventRange(ns: bigint): boolean {
  return ns >= minEventNs && ns <= maxEventNs;
}

/**
 * The part of `[startNs, endNs)` where events can lie: both ends moved into the event span. A
 * range wholly outside comes back empty (`startNs === endNs`) at the nearer end of the span. The
 * end stays exclusive, so the one last representable nanosecond is never in a clamped range.
 */
export function clampToEventSpan(range: { readonly startNs: bigint; readonly endNs: bigint }): { startNs: bigint; endNs: bigint } {
  const clamp = (ns: bigint): bigint => (ns < minEventNs ? minEventNs : ns > maxEventNs ? maxEventNs : ns);
  return { startNs: clamp(range.startNs), endNs: clamp(range.endNs) };
}
