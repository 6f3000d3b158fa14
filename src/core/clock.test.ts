import { describe, expect, it } from 'vitest';
import { formatRfc3339Ns, parseRfc3339Ns } from './clock.js';

const ns = (iso: string): bigint => BigInt(Date.parse(iso)) * 1_000_000n;

describe('parseRfc3339Ns', () => {
  it('reads every offset and nine fractional digits exactly', () => {
    expect(parseRfc3339Ns('2026-11-21T10:00:00.123456789Z')).toBe(ns('2026-11-21T10:00:00Z') + 123_456_789n);
    expect(parseRfc3339Ns('2026-11-21t12:30:00+02:30')).toBe(ns('2026-11-21T10:00:00Z'));
    expect(parseRfc3339Ns('2026-11-21T10:00:00.5z')).toBe(ns('2026-11-21T10:00:00Z') + 500_000_000n);
  });

  it('takes what RFC 3339 allows: a space for T, more than nine fractional digits, a leap second', () => {
    expect(parseRfc3339Ns('2026-01-01 00:00:01Z')).toBe(ns('2026-01-01T00:00:01Z'));
    expect(parseRfc3339Ns('2026-01-01T23:59:59.9990000001Z')).toBe(ns('2026-01-01T23:59:59Z') + 999_000_000n);
    expect(parseRfc3339Ns('2026-01-01T23:59:59.1234567899Z')).toBe(ns('2026-01-01T23:59:59Z') + 123_456_789n);
    const leap = parseRfc3339Ns('2016-12-31T23:59:60Z');
    expect(leap).toBe(ns('2016-12-31T23:59:59Z') + 999_999_999n);
    expect(leap! < parseRfc3339Ns('2017-01-01T00:00:00Z')!).toBe(true);
  });

  it('refuses what is not a time', () => {
    for (const text of [
      '2026-02-30T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01T00:00:61Z',
      '2026-01-01T00:00:00',
      '2026-01-01T00:00:00.Z',
      '2026-01-01',
      'now',
    ]) {
      expect(parseRfc3339Ns(text), text).toBeNull();
    }
  });

  it('round-trips with formatRfc3339Ns', () => {
    for (const text of ['1970-01-01T00:00:00.000000000Z', '2026-11-21T10:00:00.123456789Z', '1969-12-31T23:59:59.500000000Z']) {
      expect(formatRfc3339Ns(parseRfc3339Ns(text)!)).toBe(text);
    }
  });
});
