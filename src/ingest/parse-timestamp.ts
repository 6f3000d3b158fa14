import { civilToNs, monthFromName } from './civil-time.js';
import { parseEpoch } from './parse-epoch.js';
import { parseCommonLogTime, parseRfc2822Time, parseSyslogTime } from './parse-month-name-time.js';
import { TextCursor, readClockTime } from './text-cursor.js';

/**
 * Reads one field value as an event time in exact nanoseconds since the epoch, or null when it
 * is not a timestamp Vigil understands or lies outside 1900..2262. Accepted: RFC 3339 / ISO 8601,
 * Apache common log, RFC 2822, BSD syslog (year inferred from `nowMs`) and epoch numbers or
 * numeric strings in s / ms / µs / ns chosen by magnitude.
 */
export function parseTimestamp(value: string | number, nowMs: number): bigint | null {
  if (typeof value === 'number') return Number.isFinite(value) ? parseEpoch(String(value)) : null;
  const text = trimmed(value);
  if (text.length === 0) return null;
  const first = text.charCodeAt(0);
  if (isDigit(first)) {
    if (text.charCodeAt(4) === 45) return parseIsoTime(text);
    // `17/May/2015:...` or `01 Jul 2003 ...`: a one- or two-digit day, then `/` or a space
    const afterDay = isDigit(text.charCodeAt(1)) ? text.charCodeAt(2) : text.charCodeAt(1);
    if (afterDay === 47) return parseCommonLogTime(text);
    if (afterDay === 32) return parseRfc2822Time(text);
    return parseEpoch(text);
  }
  if (first === 45 || first === 43 || first === 46) return parseEpoch(text);
  if (first === 91) return parseCommonLogTime(text);
  if (isLetter(first)) {
    if (text.charCodeAt(3) === 44 && isLetter(text.charCodeAt(1)) && isLetter(text.charCodeAt(2))) {
      return parseRfc2822Time(text);
    }
    if (monthFromName(text, 0) > 0) return parseSyslogTime(text, nowMs);
  }
  return null;
}

/**
 * RFC 3339 / ISO 8601 extended format: `YYYY-MM-DD`, then optionally `T`, `t` or a space and
 * `hh:mm[:ss[.fraction]]` (`,` also starts a fraction, as in Java logs), then optionally a zone:
 * `Z`, `UTC`, `GMT`, `±hh`, `±hhmm` or `±hh:mm`, possibly after one space. No zone means UTC.
 */
export function parseIsoTime(text: string): bigint | null {
  const c = new TextCursor(text);
  const year = c.digits(4, 4);
  if (year < 0 || !c.eat(45)) return null;
  const month = c.digits(2, 2);
  if (month < 0 || !c.eat(45)) return null;
  const day = c.digits(2, 2);
  if (day < 0) return null;
  if (c.atEnd()) return civilToNs({ year, month, day, hour: 0, minute: 0, second: 0, nanos: 0, offsetMinutes: 0 });
  const sep = c.peek();
  if (sep !== 84 && sep !== 116 && sep !== 32) return null;
  c.pos++;
  const time = readClockTime(c, false);
  if (time === null) return null;
  const offsetMinutes = readIsoZone(c);
  if (offsetMinutes === null) return null;
  return civilToNs({ year, month, day, ...time, offsetMinutes });
}

/** The zone suffix of an ISO time up to the end of the text, in minutes east of UTC. */
function readIsoZone(c: TextCursor): number | null {
  if (c.atEnd()) return 0;
  if (c.peek() === 32) c.pos++;
  let offset: number | null = null;
  const z = c.peek();
  if (z === 90 || z === 122) {
    c.pos++;
    offset = 0;
  } else if (c.eatWord('utc') || c.eatWord('gmt')) {
    offset = 0;
  } else {
    offset = c.numericOffset();
  }
  return offset !== null && c.atEnd() ? offset : null;
}

/** The text without surrounding ASCII whitespace; allocates only when there is some. */
function trimmed(text: string): string {
  const n = text.length;
  if (n === 0) return text;
  return text.charCodeAt(0) <= 32 || text.charCodeAt(n - 1) <= 32 ? text.trim() : text;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
