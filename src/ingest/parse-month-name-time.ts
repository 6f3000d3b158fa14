import { civilToNs, monthFromName, yearOfMs } from './civil-time.js';
import { TextCursor, readClockTime } from './text-cursor.js';

/** RFC 2822 zone names (section 4.3 obsolete zones included, military letters other than Z not). */
const namedZones: ReadonlyArray<readonly [string, number]> = [
  ['utc', 0],
  ['ut', 0],
  ['gmt', 0],
  ['z', 0],
  ['est', -300],
  ['edt', -240],
  ['cst', -360],
  ['cdt', -300],
  ['mst', -420],
  ['mdt', -360],
  ['pst', -480],
  ['pdt', -420],
];

const msPerDay = 86_400_000;

/**
 * Apache / common log format `17/May/2015:10:05:03 +0000`, optionally in brackets as it
 * appears in the log line. No offset means UTC.
 */
export function parseCommonLogTime(text: string): bigint | null {
  const c = new TextCursor(text);
  const bracketed = c.eat(91);
  const day = c.digits(1, 2);
  if (day < 0 || !c.eat(47)) return null;
  const month = monthFromName(text, c.pos);
  if (month === 0) return null;
  c.pos += 3;
  if (!c.eat(47)) return null;
  const year = c.digits(4, 4);
  if (year < 0 || !c.eat(58)) return null;
  const clock = readClockTime(c, true);
  if (clock === null) return null;
  let offsetMinutes = 0;
  if (c.spaces() > 0) {
    const offset = c.numericOffset();
    if (offset === null) return null;
    offsetMinutes = offset;
  }
  if (bracketed && !c.eat(93)) return null;
  if (!c.atEnd()) return null;
  return civilToNs({ year, month, day, ...clock, offsetMinutes });
}

/**
 * RFC 2822 `Tue, 01 Jul 2003 10:52:37 +0200` (weekday optional and not checked against the date,
 * seconds optional, numeric or named zone; no zone means UTC).
 */
export function parseRfc2822Time(text: string): bigint | null {
  const c = new TextCursor(text);
  if (!isDigit(c.peek())) {
    c.pos += 3; // the weekday name: a letter check happened in the dispatcher
    if (!c.eat(44)) return null;
    c.spaces();
  }
  const day = c.digits(1, 2);
  if (day < 0 || c.spaces() === 0) return null;
  const month = monthFromName(text, c.pos);
  if (month === 0) return null;
  c.pos += 3;
  if (c.spaces() === 0) return null;
  const year = c.digits(4, 4);
  if (year < 0 || c.spaces() === 0) return null;
  const clock = readClockTime(c, false);
  if (clock === null) return null;
  let offsetMinutes = 0;
  if (c.spaces() > 0 && !c.atEnd()) {
    const offset = c.numericOffset() ?? namedZone(c);
    if (offset === null) return null;
    offsetMinutes = offset;
  }
  if (!c.atEnd()) return null;
  return civilToNs({ year, month, day, ...clock, offsetMinutes });
}

/**
 * BSD syslog `Mar 27 13:06:56` (optionally with a fraction). It has no year and no zone: UTC,
 * and the latest year that puts the instant no more than one day after ingest time, which is the
 * closest such year (a Feb 29 looks back to the last leap year).
 */
export function parseSyslogTime(text: string, nowMs: number): bigint | null {
  const c = new TextCursor(text);
  const month = monthFromName(text, 0);
  if (month === 0) return null;
  c.pos = 3;
  if (c.spaces() === 0) return null;
  const day = c.digits(1, 2);
  if (day < 0 || c.spaces() === 0) return null;
  const clock = readClockTime(c, true);
  if (clock === null || !c.atEnd()) return null;
  const limitNs = BigInt(nowMs + msPerDay) * 1_000_000n;
  const nowYear = yearOfMs(nowMs);
  for (let year = nowYear + 1; year >= nowYear - 8; year--) {
    const ns = civilToNs({ year, month, day, ...clock, offsetMinutes: 0 });
    if (ns !== null && ns <= limitNs) return ns;
  }
  return null;
}

function namedZone(c: TextCursor): number | null {
  const start = c.pos;
  for (const [name, minutes] of namedZones) {
    if (c.eatWord(name) && c.atEnd()) return minutes;
    c.pos = start;
  }
  return null;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
