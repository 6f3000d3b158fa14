import { describe, expect, it } from 'vitest';
import { clampToEventSpan, maxEventNs, minEventNs } from './event-time-span.js';
import { parseRfc3339Ns } from './clock.js';

const at = (text: string): bigint => parseRfc3339Ns(text) as bigint;

describe('clampToEventSpan', () => {
  it('keeps a range inside the span as it is', () => {
    const range = { startNs: at('2026-01-01T00:00:00Z'), endNs: at('2026-01-02T00:00:00Z') };
    expect(clampToEventSpan(range)).toEqual(range);
  });

  it('cuts the ends of a range larger than the span to the span', () => {
    expect(clampToEventSpan({ startNs: at('0001-01-01T00:00:00Z'), endNs: at('9999-12-31T23:59:59Z') })).toEqual({ startNs: minEventNs, endNs: maxEventNs });
    expect(minEventNs).toBe(at('1900-01-01T00:00:00Z'));
    expect(maxEventNs).toBe(at('2262-04-11T23:47:16.854775807Z'));
  });

  it('makes a range wholly before or after the span empty, at its nearer end', () => {
    expect(clampToEventSpan({ startNs: at('0001-01-01T00:00:00Z'), endNs: at('1677-09-21T00:12:43Z') })).toEqual({ startNs: minEventNs, endNs: minEventNs });
    expect(clampToEventSpan({ startNs: at('2262-04-12T00:00:00Z'), endNs: at('9999-12-31T23:59:59Z') })).toEqual({ startNs: maxEventNs, endNs: maxEventNs });
  });
});
