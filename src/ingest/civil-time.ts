/**
 * Calendar arithmetic shared by the timestamp readers. Everything is integer math on the
 * proleptic Gregorian calendar in UTC, so results are exact and independent of the host zone.
 */
import { inEventRange } from '../core/index.js';

// The span events can have is core's (search clamps query ranges to it); re-exported for ingest's readers.
export { inEventRange, maxEventNs, minEventNs } from '../core/index.js';

export const nsPerSecond = 1_000_000_000n;

const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Days from 1970-01-01 to the given date (Howard Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Number of days in a month of a year. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The UTC calendar year of an instant given in milliseconds. */
export function yearOfMs(ms: number): number {
  return new Date(ms).getUTCFullYear();
}

/** Fields of a civil date-time; `second` may be 60 (a leap second rolls into the next minute). */
export interface CivilTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** Nanoseconds within the second, 0..999,999,999. */
  readonly nanos: number;
  /** Offset of the local time from UTC, in minutes (east positive). */
  readonly offsetMinutes: number;
}

/**
 * Nanoseconds since the epoch for a civil time, or null when a field is out of range or the
 * instant is outside what a `DateTime64(9)` column can hold (1900 to 2262).
 */
export function civilToNs(t: CivilTime): bigint | null {
  if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > daysInMonth(t.year, t.month)) return null;
  if (t.hour > 23 || t.minute > 59 || t.second > 60) return null;
  const seconds = daysFromCivil(t.year, t.month, t.day) * 86_400 + t.hour * 3600 + t.minute * 60 + t.second - t.offsetMinutes * 60;
  const ns = BigInt(seconds) * nsPerSecond + BigInt(t.nanos);
  return inEventRange(ns) ? ns : null;
}

/** 1-based month of a three-letter English month name in any letter case, or 0. */
export function monthFromName(text: string, at: number): number {
  if (at + 3 > text.length) return 0;
  const name = text.slice(at, at + 3).toLowerCase();
  return monthNames.indexOf(name) + 1;
}
