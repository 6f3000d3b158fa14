/** The time source. Logic takes a Clock argument so tests and rule replays control time. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  nowMs(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** `YYYY-MM-DDThh:mm:ssZ`, the timestamp shape of every API object. */
export function formatApiTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 timestamp (`2026-11-21T10:00:00.123456789Z`, any offset) to nanoseconds
 * since the epoch; null when the text is not one. As RFC 3339 allows: a space for the `T`
 * (its section 5.6 note), any number of fractional digits (past nine they are dropped, the time
 * rounded down to the nanosecond), and second 60 of a leap second, read as the last nanosecond of
 * second 59 (Unix time has no leap seconds; the order of times is kept).
 */
export function parseRfc3339Ns(text: string): bigint | null {
  const match = rfc3339.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = match;
  const leapSecond = s === '60';
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${leapSecond ? '59' : s}${zone.toUpperCase()}`);
  if (Number.isNaN(ms)) return null;
  // Date.parse accepts days such as Feb 30 by rolling over; refuse them.
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return null;
  const nanos = leapSecond ? 999_999_999n : BigInt(fraction.slice(0, 9).padEnd(9, '0'));
  return BigInt(ms) * 1_000_000n + nanos;
}

/** Formats nanoseconds since the epoch as RFC 3339 with nine fractional digits (UTC). */
export function formatRfc3339Ns(ns: bigint): string {
  let seconds = ns / 1_000_000_000n;
  if (seconds * 1_000_000_000n > ns) seconds -= 1n;
  const nanos = ns - seconds * 1_000_000_000n;
  const whole = new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  return `${whole}.${nanos.toString().padStart(9, '0')}Z`;
}
