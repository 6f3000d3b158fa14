import { describe, expect, it } from 'vitest';
import { formatRfc3339Ns, parseRfc3339Ns } from '../../core/index.js';
import { parseQueryOrThrow, indexTargetsOf } from '../../query/index.js';
import { testIndexes, testWindow } from './rule-test-window.js';

const ns = (text: string): bigint => parseRfc3339Ns(text) ?? 0n;
const window = (schedule: { runFrequencyS: number; timeRangeS: number }, now: string | null, events: string[] = []) => {
  const w = testWindow(schedule, now, events.map(ns));
  return [formatRfc3339Ns(w.startNs), formatRfc3339Ns(w.endNs)];
};

describe('testWindow (E15)', () => {
  const every5m = { runFrequencyS: 300, timeRangeS: 900 };

  it('rounds now_timestamp up to the next run_frequency_s boundary since the epoch', () => {
    expect(window(every5m, '2026-05-15T00:03:00Z')).toEqual(['2026-05-14T23:50:00.000000000Z', '2026-05-15T00:05:00.000000000Z']);
    expect(window(every5m, '2026-05-15T00:00:00.000000001Z')[1]).toBe('2026-05-15T00:05:00.000000000Z');
  });

  it('keeps a now_timestamp already on a boundary', () => {
    expect(window(every5m, '2026-05-15T00:05:00Z')).toEqual(['2026-05-14T23:50:00.000000000Z', '2026-05-15T00:05:00.000000000Z']);
  });

  it('defaults now to the first boundary after the latest event, so that event is in the window', () => {
    expect(window(every5m, null, ['2026-05-15T00:01:00Z', '2026-05-15T00:07:00Z'])[1]).toBe('2026-05-15T00:10:00.000000000Z');
    // An event exactly on a boundary would fall outside [start, end) if now were its time.
    expect(window({ runFrequencyS: 600, timeRangeS: 3600 }, null, ['2024-01-01T00:00:00Z'])).toEqual(['2023-12-31T23:10:00.000000000Z', '2024-01-01T00:10:00.000000000Z']);
  });

  it('handles times before the epoch', () => {
    expect(window({ runFrequencyS: 60, timeRangeS: 60 }, '1969-12-31T23:59:30Z')).toEqual(['1969-12-31T23:59:00.000000000Z', '1970-01-01T00:00:00.000000000Z']);
  });
});

describe('testIndexes', () => {
  const of = (query: string) => testIndexes(indexTargetsOf(parseQueryOrThrow(query)));

  it('gives a query that names no index one user index', () => {
    expect(of('x')).toEqual({ indexes: [{ id: 'rule-test', name: 'rule-test', system: false }], loadInto: ['rule-test'] });
  });

  it('makes every index named by name the one dataset index', () => {
    expect(of('@index=(web app) x | where @index = web')).toEqual({
      indexes: [
        { id: 'rule-test', name: 'web', system: false },
        { id: 'rule-test', name: 'app', system: false },
      ],
      loadInto: ['rule-test'],
    });
  });

  it('keeps the id of an index named with one, and loads the dataset there', () => {
    expect(of('@index={ 00000000-0000-0000-0000-000000000000 | "_detections" } tags[*]:x')).toEqual({
      indexes: [{ id: '00000000-0000-0000-0000-000000000000', name: '_detections', system: true }],
      loadInto: ['00000000-0000-0000-0000-000000000000'],
    });
  });
});
