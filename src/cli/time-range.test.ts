import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/index.js';
import { parseTimeRange } from './time-range.js';

const now = Date.parse('2026-11-21T12:00:00Z');
const ns = (iso: string): bigint => BigInt(Date.parse(iso)) * 1_000_000n;

describe('parseTimeRange', () => {
  it('defaults to the last 24 hours', () => {
    expect(parseTimeRange({}, now)).toEqual({ startNs: ns('2026-11-20T12:00:00Z'), endNs: ns('2026-11-21T12:00:00Z') });
  });

  it('reads RFC 3339 bounds with offsets and nanoseconds', () => {
    const range = parseTimeRange({ from: '2026-11-21T10:00:00.000000001+01:00', to: 'now' }, now);
    expect(range.startNs).toBe(ns('2026-11-21T09:00:00Z') + 1n);
    expect(range.endNs).toBe(ns('2026-11-21T12:00:00Z'));
  });

  it('counts --last back from --to', () => {
    expect(parseTimeRange({ last: '15m', to: '2026-11-21T11:00:00Z' }, now).startNs).toBe(ns('2026-11-21T10:45:00Z'));
  });

  it('names the flag at fault', () => {
    expect(() => parseTimeRange({ from: 'yesterday' }, now)).toThrow(/--from must be an RFC 3339 time/);
    expect(() => parseTimeRange({ last: '3 days' }, now)).toThrow(/--last takes a duration/);
    expect(() => parseTimeRange({ from: '2026-11-22T00:00:00Z' }, now)).toThrow(ValidationError);
    expect(() => parseTimeRange({ from: '2026-11-20T00:00:00Z', last: '1h' }, now)).toThrow(/not both/);
  });
});
