import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after.js';
import { defaultRetryPolicy, retryDelayMs } from './retry-policy.js';
import { cutMarker, cutText } from './text-limits.js';

describe('retryDelayMs', () => {
  const mid = () => 0.5;
  it('doubles from 1 s to at most 5 min', () => {
    expect([1, 2, 3, 4, 9, 10, 50].map((n) => retryDelayMs(defaultRetryPolicy, n, null, mid))).toEqual([1000, 2000, 4000, 8000, 256_000, 300_000, 300_000]);
  });
  it('jitters by at most 20 % either way', () => {
    expect(retryDelayMs(defaultRetryPolicy, 3, null, () => 0)).toBe(3200);
    expect(retryDelayMs(defaultRetryPolicy, 3, null, () => 0.999999)).toBe(4800);
  });
  it('waits what Retry-After says, but at least the first delay', () => {
    expect(retryDelayMs(defaultRetryPolicy, 6, 30_000, mid)).toBe(30_000);
    expect(retryDelayMs(defaultRetryPolicy, 6, 0, mid)).toBe(1000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(['3'], now)).toBe(3000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:10 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});

describe('cutText', () => {
  it('keeps text that fits and marks the cut otherwise', () => {
    expect(cutText('short', 10)).toBe('short');
    const cut = cutText('a'.repeat(50), 20);
    expect(cut).toHaveLength(20);
    expect(cut.endsWith(cutMarker)).toBe(true);
  });
  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(20);
    const cut = cutText(text, 20);
    expect(cut.length).toBeLessThanOrEqual(20);
    expect(cut.replace(cutMarker, '')).toMatch(/^(😀)*$/u);
  });
});
