import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxEventNs, minEventNs } from './civil-time.js';
import { parseTimestamp } from './parse-timestamp.js';

/** Ingest time for every case: 2024-03-01T12:00:00Z. */
const nowMs = Date.UTC(2024, 2, 1, 12, 0, 0);

/** Exact nanoseconds of an ISO instant with up to 9 fraction digits (the test's own oracle). */
function ns(iso: string): bigint {
  const match = /^(.*?)(?:\.(\d+))?Z$/.exec(iso);
  if (!match) throw new Error(`bad oracle input ${iso}`);
  const ms = Date.parse(`${match[1]}Z`);
  return BigInt(ms) * 1_000_000n + BigInt((match[2] ?? '').padEnd(9, '0'));
}

describe('parseTimestamp', () => {
  describe('RFC 3339 / ISO 8601 shapes found in the sample datasets', () => {
    it.each([
      ['Windows @timestamp', '2020-06-10T02:50:56.537Z', '2020-06-10T02:50:56.537Z'],
      ['Windows EventTime (space, no zone)', '2020-06-09 22:50:54', '2020-06-09T22:50:54Z'],
      ['Windows TimeCreated (space, millis)', '2020-10-18 10:56:18.799', '2020-10-18T10:56:18.799Z'],
      ['Zeek ts with micros', '2018-03-24T17:15:20.613421Z', '2018-03-24T17:15:20.613421Z'],
      ['Azure 7 digits', '2021-08-02T13:11:39.7724491Z', '2021-08-02T13:11:39.7724491Z'],
      ['Azure 2 digits', '2021-08-02T13:09:20.04Z', '2021-08-02T13:09:20.04Z'],
      ['GCP nanoseconds', '2024-07-22T14:20:55.898367039Z', '2024-07-22T14:20:55.898367039Z'],
      ['Panther nanoseconds with space', '2024-03-13 22:36:27.788000000', '2024-03-13T22:36:27.788Z'],
      ['Okta published', '2022-11-22 18:48:49.177', '2022-11-22T18:48:49.177Z'],
      ['offset with colon', '2022-02-18T17:39:28.127636+00:00', '2022-02-18T17:39:28.127636Z'],
      ['positive offset', '2020-01-01T02:00:00+02:00', '2020-01-01T00:00:00Z'],
      ['negative offset', '2019-12-31T19:00:00-05:00', '2020-01-01T00:00:00Z'],
      ['offset without colon after a space', '2024-01-15 10:30:45 +0000', '2024-01-15T10:30:45Z'],
      ['offset ±hhmm', '2024-01-15T12:30:45+0200', '2024-01-15T10:30:45Z'],
      ['offset ±hh', '2024-01-15T12:30:45+02', '2024-01-15T10:30:45Z'],
      ['lower-case t and z', '2020-08-13t18:39:42z', '2020-08-13T18:39:42Z'],
      ['space then Z', '2021-05-20 15:53:47Z', '2021-05-20T15:53:47Z'],
      ['UTC suffix', '2021-05-20 15:53:47 UTC', '2021-05-20T15:53:47Z'],
      ['comma fraction (log4j)', '2021-12-10 10:00:00,123', '2021-12-10T10:00:00.123Z'],
      ['no seconds', '2021-12-10T10:00', '2021-12-10T10:00:00Z'],
      ['date only', '2021-08-02', '2021-08-02T00:00:00Z'],
      ['more than 9 fraction digits are truncated', '2020-01-01T00:00:00.1234567899Z', '2020-01-01T00:00:00.123456789Z'],
      ['surrounding whitespace', '  2020-01-01T00:00:00Z\n', '2020-01-01T00:00:00Z'],
      ['leap day', '2024-02-29T00:00:00Z', '2024-02-29T00:00:00Z'],
      ['before 1970', '1969-07-20T20:17:40Z', '1969-07-20T20:17:40Z'],
    ])('%s: %s', (_name, input, expected) => {
      expect(parseTimestamp(input, nowMs)).toBe(ns(expected));
    });

    it('keeps all nine fraction digits exactly', () => {
      expect(parseTimestamp('2023-03-09T16:28:40.890430163Z', nowMs)).toBe(1_678_379_320_890_430_163n);
    });

    it('reads a leap second as the first instant of the next minute', () => {
      expect(parseTimestamp('2016-12-31T23:59:60Z', nowMs)).toBe(ns('2017-01-01T00:00:00Z'));
    });
  });

  describe('other text formats', () => {
    it.each([
      ['Apache common log', '17/May/2015:10:05:03 +0000', '2015-05-17T10:05:03Z'],
      ['Apache with brackets', '[17/May/2015:10:05:03 +0000]', '2015-05-17T10:05:03Z'],
      ['Apache with offset', '17/May/2015:12:05:03 +0200', '2015-05-17T10:05:03Z'],
      ['Apache one-digit day, no zone', '7/May/2015:10:05:03', '2015-05-07T10:05:03Z'],
      ['RFC 2822', 'Tue, 01 Jul 2003 10:52:37 +0200', '2003-07-01T08:52:37Z'],
      ['RFC 2822 without weekday', '1 Jul 2003 10:52:37 -0000', '2003-07-01T10:52:37Z'],
      ['RFC 2822 GMT', 'Tue, 01 Jul 2003 10:52:37 GMT', '2003-07-01T10:52:37Z'],
      ['RFC 2822 EST', 'Tue, 01 Jul 2003 05:52:37 EST', '2003-07-01T10:52:37Z'],
      ['RFC 2822 PDT', 'Tue, 01 Jul 2003 03:52:37 PDT', '2003-07-01T10:52:37Z'],
      ['RFC 2822 without seconds or zone', 'Tue, 01 Jul 2003 10:52', '2003-07-01T10:52:00Z'],
      ['month names in any case', '01 JUL 2003 10:52:37 +0000', '2003-07-01T10:52:37Z'],
    ])('%s: %s', (_name, input, expected) => {
      expect(parseTimestamp(input, nowMs)).toBe(ns(expected));
    });
  });

  describe('syslog without a year (ingest time 2024-03-01T12:00:00Z)', () => {
    it.each([
      ['earlier this year', 'Feb 27 13:06:56', '2024-02-27T13:06:56Z'],
      ['space-padded day', 'Feb  7 13:06:56', '2024-02-07T13:06:56Z'],
      ['later in the year means last year', 'Mar 27 13:06:56', '2023-03-27T13:06:56Z'],
      ['December is last year', 'Dec 31 23:59:59', '2023-12-31T23:59:59Z'],
      ['up to a day ahead stays this year (clock skew)', 'Mar  2 11:00:00', '2024-03-02T11:00:00Z'],
      ['more than a day ahead is last year', 'Mar  2 13:00:00', '2023-03-02T13:00:00Z'],
      ['with a fraction', 'Feb 27 13:06:56.250', '2024-02-27T13:06:56.25Z'],
      ['Feb 29 in a leap year', 'Feb 29 00:00:00', '2024-02-29T00:00:00Z'],
    ])('%s: %s', (_name, input, expected) => {
      expect(parseTimestamp(input, nowMs)).toBe(ns(expected));
    });

    it('looks back to the last leap year for Feb 29', () => {
      expect(parseTimestamp('Feb 29 00:00:00', Date.UTC(2027, 5, 1))).toBe(ns('2024-02-29T00:00:00Z'));
    });

    it('rolls into next year around New Year', () => {
      expect(parseTimestamp('Jan  1 00:00:05', Date.UTC(2023, 11, 31, 23, 59))).toBe(ns('2024-01-01T00:00:05Z'));
    });
  });

  describe('epoch numbers, unit chosen by magnitude', () => {
    it.each([
      ['seconds', 1_588_205_198, '2020-04-30T00:06:38Z'],
      ['Zeek fractional seconds', 1_588_205_199.82437, '2020-04-30T00:06:39.82437Z'],
      ['Zeek micro fraction', 1_588_205_199.827696, '2020-04-30T00:06:39.827696Z'],
      ['milliseconds', 1_671_111_111_111, '2022-12-15T13:31:51.111Z'],
      ['microseconds', 1_671_111_111_111_222, '2022-12-15T13:31:51.111222Z'],
      ['zero is the epoch', 0, '1970-01-01T00:00:00Z'],
      ['negative seconds', -86_400, '1969-12-31T00:00:00Z'],
      ['largest seconds value (1e11 - 1) is out of range', 99_999_999_999, null],
      ['1e11 is read as milliseconds', 100_000_000_000, '1973-03-03T09:46:40Z'],
      ['1e14 is read as microseconds', 100_000_000_000_000, '1973-03-03T09:46:40Z'],
    ])('%s: %s', (_name, input, expected) => {
      expect(parseTimestamp(input, nowMs)).toBe(expected === null ? null : ns(expected));
    });

    it.each([
      ['seconds', '1588205198', '2020-04-30T00:06:38Z'],
      ['fractional seconds', '1588205198.123456', '2020-04-30T00:06:38.123456Z'],
      ['milliseconds (Panther event.timestamp)', '1682368416719', '2023-04-24T20:33:36.719Z'],
      ['microseconds', '1588205198123456', '2020-04-30T00:06:38.123456Z'],
      ['nanoseconds, all digits kept', '1588205198123456789', '2020-04-30T00:06:38.123456789Z'],
      ['fraction finer than a nanosecond is truncated', '1588205198.1234567891', '2020-04-30T00:06:38.123456789Z'],
      ['fractional milliseconds', '1588205198123.5', '2020-04-30T00:06:38.1235Z'],
      ['exponent', '1.588205198e9', '2020-04-30T00:06:38Z'],
      ['leading plus', '+1588205198', '2020-04-30T00:06:38Z'],
    ])('numeric string %s: %s', (_name, input, expected) => {
      expect(parseTimestamp(input, nowMs)).toBe(ns(expected));
    });
  });

  describe('not timestamps', () => {
    it.each([
      ['empty', ''],
      ['a word', 'redacted'],
      ['an ellipsis', '...'],
      ['true', 'true'],
      ['month 13', '2020-13-01T00:00:00Z'],
      ['Feb 30', '2021-02-30T00:00:00Z'],
      ['Feb 29 in a common year', '2021-02-29T00:00:00Z'],
      ['hour 24', '2020-01-01T24:00:00Z'],
      ['minute 60', '2020-01-01T23:60:00Z'],
      ['three-digit seconds (Panther fixture)', '2023-09-20T23:00:000.000000Z'],
      ['run-together fraction (Panther fixture)', '2024-12-17 00:00:00000000'],
      ['colon instead of T (Panther fixture)', '2025-04-11:21:02.3387000Z'],
      ['zone in parentheses', '2024-06-19 11:02:03 (UTC)'],
      ['trailing text', '2020-01-01T00:00:00Z extra'],
      ['bad offset', '2020-01-01T00:00:00+25:00'],
      ['dot without fraction', '2020-01-01T00:00:00.Z'],
      ['before 1900', '1899-12-31T23:59:59Z'],
      ['after 2262-04-11T23:47:16.854775807Z', '2262-04-11T23:47:16.854775808Z'],
      ['year 9999', '9999-12-31T00:00:00Z'],
      ['epoch seconds before 1900', '-2208988801'],
      ['nanoseconds beyond int64', '9223372036854775808'],
      ['not a number', '12ab'],
      ['lone minus', '-'],
      ['unknown month', 'Foo 27 13:06:56'],
      ['syslog without seconds', 'Mar 27 13:06'],
      ['RFC 2822 with unknown zone', 'Tue, 01 Jul 2003 10:52:37 XYZ'],
      ['Apache with bad month', '17/Mai/2015:10:05:03 +0000'],
    ])('%s: %j', (_name, input) => {
      expect(parseTimestamp(input, nowMs)).toBeNull();
    });

    it('rejects non-finite numbers', () => {
      expect(parseTimestamp(Number.NaN, nowMs)).toBeNull();
      expect(parseTimestamp(Number.POSITIVE_INFINITY, nowMs)).toBeNull();
    });
  });

  describe('the event span: from 1900-01-01 inclusive to the largest int64 nanosecond exclusive, as queries read it', () => {
    it('accepts 1900-01-01T00:00:00Z', () => {
      expect(parseTimestamp('1900-01-01T00:00:00Z', nowMs)).toBe(minEventNs);
    });
    it('accepts the nanosecond before the largest int64 nanosecond', () => {
      expect(parseTimestamp('2262-04-11T23:47:16.854775806Z', nowMs)).toBe(maxEventNs - 1n);
      expect(parseTimestamp('9223372036854775806', nowMs)).toBe(maxEventNs - 1n);
    });
    it('treats the largest int64 nanosecond as unreadable: no query range can include it', () => {
      expect(parseTimestamp('2262-04-11T23:47:16.854775807Z', nowMs)).toBeNull();
      expect(parseTimestamp('9223372036854775807', nowMs)).toBeNull();
    });
  });

  describe('properties', () => {
    const instant = fc.bigInt({ min: minEventNs, max: maxEventNs - 1n });

    it('reads back any instant printed as RFC 3339 with nanoseconds, in any offset', () => {
      fc.assert(
        fc.property(instant, fc.integer({ min: -14 * 60, max: 14 * 60 }), (t, offsetMinutes) => {
          const text = formatRfc3339(t, offsetMinutes);
          expect(parseTimestamp(text, nowMs)).toBe(t);
        }),
      );
    });

    it('reads back any instant printed as epoch seconds with a nanosecond fraction', () => {
      // epoch seconds are read as seconds while they have at most 11 integer digits: all of 1900..2262
      fc.assert(
        fc.property(instant, (t) => {
          const negative = t < 0n;
          const abs = negative ? -t : t;
          const text = `${negative ? '-' : ''}${abs / 1_000_000_000n}.${String(abs % 1_000_000_000n).padStart(9, '0')}`;
          expect(parseTimestamp(text, nowMs)).toBe(t);
        }),
      );
    });

    it('never throws on arbitrary text', () => {
      fc.assert(
        fc.property(fc.string(), (text) => {
          const result = parseTimestamp(text, nowMs);
          expect(result === null || (result >= minEventNs && result < maxEventNs)).toBe(true);
        }),
      );
    });
  });
});

/** Prints an instant as `YYYY-MM-DDThh:mm:ss.fffffffff±hh:mm` in the given offset. */
function formatRfc3339(t: bigint, offsetMinutes: number): string {
  const local = t + BigInt(offsetMinutes) * 60_000_000_000n;
  const seconds = floorDiv(local, 1_000_000_000n);
  const nanos = local - seconds * 1_000_000_000n;
  const clock = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${clock}.${String(nanos).padStart(9, '0')}${zone}`;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
