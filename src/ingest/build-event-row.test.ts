import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { addStoredColumns, buildPendingRow, isReservedPath, storedColumnsOf } from './build-event-row.js';
import type { FlatValue } from './flatten-event.js';
import { defaultTimestampFields } from './ingest-types.js';

const clock = new ManualClock(Date.UTC(2024, 2, 1, 12, 0, 0));
const ingestNs = BigInt(Date.UTC(2024, 2, 1, 12, 0, 0)) * 1_000_000n;

function build(event: Record<string, unknown>, fields: readonly string[] = defaultTimestampFields) {
  return buildPendingRow(event, JSON.stringify(event), fields, clock);
}

describe('buildPendingRow', () => {
  it('serializes the flattened event and keeps the raw text as given', () => {
    const raw = '{ "a": {"b": true}, "n": null }';
    const row = buildPendingRow({ a: { b: true }, n: null }, raw, [], clock);
    expect(row).toEqual({ tsNs: ingestNs, tsField: '', rawJson: raw, attrs: { 'a.b': 'true' }, nullPaths: ['n'] });
  });

  it('stores U+FFFD for each lone surrogate of a value, a key and a null path, and in the raw text', () => {
    const raw = String.raw`{"msg":"a\ud83d","k\udc00":1,"n\ud800":null,"pair":"\ud83d\ude00","ts":"2024-03-01T00:00:00Z"}`;
    const row = buildPendingRow(JSON.parse(raw) as Record<string, unknown>, raw, defaultTimestampFields, clock);
    expect(row).toEqual({
      tsNs: 1_709_251_200_000_000_000n,
      tsField: 'ts',
      rawJson: String.raw`{"msg":"a\ufffd","k\ufffd":1,"n\ufffd":null,"pair":"\ud83d\ude00","ts":"2024-03-01T00:00:00Z"}`,
      attrs: { msg: 'a\ufffd', 'k\ufffd': 1, pair: '😀', ts: '2024-03-01T00:00:00Z' },
      nullPaths: ['n\ufffd'],
    });
  });

  describe('event time', () => {
    it('uses the first listed field that is present and parsable, and records which', () => {
      const row = build({ eventTime: '2020-09-14T00:44:20Z', '@timestamp': 'soon', time: 1_588_205_198 });
      expect(row.tsField).toBe('eventTime');
      expect(row.tsNs).toBe(1_600_044_260_000_000_000n);
    });

    it('follows the order of the list, not of the event', () => {
      const row = build({ ts: 1_588_205_198, '@timestamp': '2020-06-10T02:50:56.537Z' });
      expect(row.tsField).toBe('@timestamp');
    });

    it('finds nested and literal dotted fields by their flattened path', () => {
      expect(build({ id: { time: '2020-09-07T15:50:49.617Z' } }, ['id.time']).tsField).toBe('id.time');
      expect(build({ 'id.time': '2020-09-07T15:50:49.617Z' }, ['id.time']).tsField).toBe('id.time');
    });

    it('falls back to ingest time with an empty tsField when nothing parses', () => {
      const row = build({ timestamp: 'redacted', date: null, time: true });
      expect(row).toMatchObject({ tsNs: ingestNs, tsField: '' });
    });

    it('ignores a field that exists only on Object.prototype', () => {
      expect(build({ a: 1 }, ['constructor', 'toString']).tsField).toBe('');
    });
  });

  describe('reserved system paths (D4) get no column', () => {
    it('drops @svc.*, @scnr.*, @index, @index_id and %ingest.source_type from attrs and null paths', () => {
      const event = {
        '@svc': { source_type: 'spoofed', datetime: null },
        '@scnr.time_ns': 1,
        '@index': 'other',
        '@index_id': 'x',
        '%ingest.source_type': 'spoofed',
        '@timestamp': '2020-01-01T00:00:00Z',
        '@svcx': 1,
        '@index.name': 'kept',
        msg: 'hi',
      };
      const row = build(event);
      expect(row.attrs).toEqual({ '@timestamp': '2020-01-01T00:00:00Z', '@svcx': 1, '@index.name': 'kept', msg: 'hi' });
      expect(row.nullPaths).toEqual([]);
      expect(row.rawJson).toBe(JSON.stringify(event));
    });

    it('still lets an index read its time from a reserved field', () => {
      const row = build({ '@svc': { datetime: '2021-01-01T00:00:00Z' } }, ['@svc.datetime']);
      expect(row).toMatchObject({ tsField: '@svc.datetime', tsNs: 1_609_459_200_000_000_000n, attrs: {} });
    });

    it.each([
      ['@svc', true],
      ['@svc.source_type', true],
      ['@svc[0]', true],
      ['@scnr.datetime', true],
      ['@scanner.datetime', true],
      ['@scanner', true],
      ['@scannerx', false],
      ['@index', true],
      ['@index_id', true],
      ['%ingest.source_type', true],
      ['@svcx', false],
      ['@index.name', false],
      ['@timestamp', false],
      ['svc.x', false],
      ['', false],
    ])('isReservedPath(%j) is %s', (path, expected) => {
      expect(isReservedPath(path)).toBe(expected);
    });
  });

  it('rejects absurdly nested events with an IngestError', () => {
    let event: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 150; i++) event = { a: event };
    expect(() => build(event)).toThrow('event nested deeper than 100 levels');
  });

  it('reads a stored event back whole however deep it is (101 levels were once accepted)', () => {
    let event: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 100; i++) event = { a: event };
    const path = `${'a.'.repeat(100)}leaf`;
    expect(storedColumnsOf(event).attrs).toEqual({ [path]: 1 });
    const row: Record<string, FlatValue | null> = {};
    addStoredColumns(row, { ...event, '@svc.x': 1 });
    expect(row).toEqual({ [path]: 1 });
    addStoredColumns(row, { b: event });
    expect(Object.keys(row)).toEqual([path, `b.${path}`]);
  });
});

describe('addStoredColumns', () => {
  // The columns a search row gets: what was there, then storedColumnsOf's attrs, then its null paths.
  function expectedRow(event: unknown): [string, FlatValue | null][] {
    const { attrs, nullPaths } = storedColumnsOf(event);
    const row: Record<string, FlatValue | null> = Object.create(null) as Record<string, FlatValue | null>;
    row['@svc.datetime'] = 'first';
    for (const path in attrs) row[path] = attrs[path] as FlatValue;
    for (const path of nullPaths) if (!(path in row)) row[path] = null;
    return Object.entries(row);
  }

  function actualRow(event: unknown): [string, FlatValue | null][] {
    const row: Record<string, FlatValue | null> = Object.create(null) as Record<string, FlatValue | null>;
    row['@svc.datetime'] = 'first';
    addStoredColumns(row, event);
    return Object.entries(row);
  }

  it('adds the columns and null paths storedColumnsOf gives, in the same order, after what the row holds', () => {
    const keys = fc.constantFrom('a', 'b', 'a.b', 'n', '0', '10', '__proto__', '@svc', '@index', 'constructor', 'x y');
    const leaf = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.constant(null));
    const value = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(keys, tie('v'), { maxKeys: 3 })),
    })).v;
    fc.assert(
      fc.property(fc.dictionary(keys, value, { maxKeys: 6 }), (event) => {
        const parsed = JSON.parse(JSON.stringify(event)) as unknown; // as an event comes from a parser: __proto__ an own key
        expect(actualRow(parsed)).toEqual(expectedRow(parsed));
      }),
      { numRuns: 2000 },
    );
  });

  it('puts null paths last and leaves a row alone for anything but an object', () => {
    expect(actualRow(JSON.parse('{"n":null,"a":{"b":null,"c":1},"d":"x"}'))).toEqual([
      ['@svc.datetime', 'first'],
      ['a.c', 1],
      ['d', 'x'],
      ['n', null],
      ['a.b', null],
    ]);
    for (const notAnObject of [null, 'text', 3, [1, 2]]) expect(actualRow(notAnObject)).toEqual([['@svc.datetime', 'first']]);
  });
});
