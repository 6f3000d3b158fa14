import { describe, expect, it } from 'vitest';
import { describeRange, formatInstant, parseRange, parseTypedInstant, resolveRange } from './time-range.js';

const now = new Date('2024-05-10T12:00:00Z');

describe('time ranges', () => {
  it('resolves relative ranges back from now', () => {
    const { start, end } = resolveRange({ kind: 'relative', amount: 15, unit: 'm' }, now);
    expect(start.toISOString()).toBe('2024-05-10T11:45:00.000Z');
    expect(end).toEqual(now);
    expect(resolveRange({ kind: 'relative', amount: 7, unit: 'd' }, now).start.toISOString()).toBe('2024-05-03T12:00:00.000Z');
  });

  it('resolves all time to the events the indexes hold, else from 1970', () => {
    const span = { start: new Date('2023-01-01T00:00:00Z'), end: new Date('2023-02-01T00:00:00Z') };
    expect(resolveRange({ kind: 'all' }, now, span)).toEqual(span);
    expect(resolveRange({ kind: 'all' }, now).start.getTime()).toBe(0);
  });

  it('refuses relative ranges of zero or beyond ten years', () => {
    expect(parseRange('0h')).toBeNull();
    expect(parseRange('3651d')).toBeNull();
    expect(parseRange('3650d')).toEqual({ kind: 'relative', amount: 3650, unit: 'd' });
  });

  it('describes ranges for people', () => {
    expect(describeRange({ kind: 'relative', amount: 1, unit: 'h' }, 'utc')).toBe('Last 1 hour');
    expect(describeRange({ kind: 'relative', amount: 24, unit: 'h' }, 'utc')).toBe('Last 24 hours');
    expect(describeRange({ kind: 'absolute', start: new Date('2024-05-01T00:00:00Z'), end: new Date('2024-05-01T00:00:01.5Z') }, 'utc')).toBe(
      '2024-05-01 00:00:00 → 2024-05-01 00:00:01.500',
    );
  });

  it('reads typed instants in UTC and refuses impossible dates', () => {
    expect(parseTypedInstant('2024-05-01 13:45', 'utc')?.toISOString()).toBe('2024-05-01T13:45:00.000Z');
    expect(parseTypedInstant('2024-05-01T13:45:07.25', 'utc')?.toISOString()).toBe('2024-05-01T13:45:07.250Z');
    expect(parseTypedInstant('2024-02-31 00:00', 'utc')).toBeNull();
    expect(parseTypedInstant('yesterday', 'utc')).toBeNull();
  });

  it('formats and reads back an instant in the same zone', () => {
    for (const zone of ['utc', 'local'] as const) {
      const date = new Date('2024-05-01T13:45:07.250Z');
      expect(parseTypedInstant(formatInstant(date, zone), zone)).toEqual(date);
    }
  });
});
