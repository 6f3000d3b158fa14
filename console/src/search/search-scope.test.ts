import { describe, expect, it } from 'vitest';
import { allTimeSpan, combineFields, combineStats } from './search-scope.js';

const stats = (first: string | null, last: string | null, events: number) => ({
  index_id: 'i',
  name: 'n',
  events,
  first_event_time: first,
  last_event_time: last,
  bytes_on_disk: 0,
  events_without_time: 0,
  retention_days: null,
});

describe('what the searched indexes hold', () => {
  it('spans from the earliest first event to the latest last one', () => {
    const combined = combineStats([stats('2024-01-05T00:00:00Z', '2024-01-06T00:00:00Z', 5), stats('2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z', 2), stats(null, null, 0)]);
    expect(combined).toEqual({ events: 7, first: new Date('2024-01-01T00:00:00Z'), last: new Date('2024-01-06T00:00:00Z') });
    expect(allTimeSpan(combined)).toEqual({ start: new Date('2024-01-01T00:00:00Z'), end: new Date('2024-01-06T00:00:00.001Z') });
  });

  it('has no span when the indexes are empty', () => {
    expect(allTimeSpan(combineStats([stats(null, null, 0)]))).toBeNull();
  });

  it('merges field lists of several indexes, most common first', () => {
    const merged = combineFields([
      {
        events: 10,
        fields: [
          { path: 'user', types: ['string'], rows: 10 },
          { path: 'n', types: ['int64'], rows: 2 },
        ],
      },
      {
        events: 5,
        fields: [
          { path: 'n', types: ['float64'], rows: 5 },
          { path: 'a', types: ['string'], rows: 2 },
        ],
      },
    ]);
    expect(merged).toEqual({
      events: 15,
      fields: [
        { path: 'user', types: ['string'], rows: 10 },
        { path: 'n', types: ['int64', 'float64'], rows: 7 },
        { path: 'a', types: ['string'], rows: 2 },
      ],
    });
  });
});
