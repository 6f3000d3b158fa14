import { describe, expect, it } from 'vitest';
import { formatEventDatetime, isSystemColumnName } from './system-columns.js';

describe('formatEventDatetime', () => {
  it.each([
    [1_795_255_200_123_456_789n, '2026-11-21T10:00:00.123456789Z'],
    [0n, '1970-01-01T00:00:00.000000000Z'],
    [1n, '1970-01-01T00:00:00.000000001Z'],
    [-1n, '1969-12-31T23:59:59.999999999Z'],
    [-1_000_000_000n, '1969-12-31T23:59:59.000000000Z'],
    [-86_400_000_000_001n, '1969-12-30T23:59:59.999999999Z'],
    [7_258_118_400_000_000_000n, '2200-01-01T00:00:00.000000000Z'],
    [951_782_400_500_000_000n, '2000-02-29T00:00:00.500000000Z'],
  ])('%s ns is %s', (ns, text) => {
    expect(formatEventDatetime(ns)).toBe(text);
  });
});

describe('isSystemColumnName', () => {
  it('covers @svc.*, @index and @index_id only', () => {
    expect(['@svc.datetime', '@svc.anything', '@index', '@index_id'].every(isSystemColumnName)).toBe(true);
    expect(['@index_name', '@svcx', 'svc.datetime', '@scnr.datetime', '@q.count'].some(isSystemColumnName)).toBe(false);
  });
});
