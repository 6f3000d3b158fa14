import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IngestError, ManualClock } from '../core/index.js';
import { encodeEventFields, encodeEventHead, EventFieldsReader, FieldPathIds, SlabEventEncoder } from '../engine/index.js';
import { buildPendingRow } from './build-event-row.js';
import { EventWalker } from './event-walker.js';
import { maxFlattenDepth } from './flatten-event.js';
import { IngestRowEncoder, type EncodedRow } from './ingest-row-encoder.js';
import { valuesText } from './values-text.js';

const clock = new ManualClock(Date.UTC(2024, 2, 1, 12, 0, 0));
const timestampFields = ['ts', 'a.b', '@svc.time', '1', 'k[0]'];
const engine = { eventEncoder: () => new SlabEventEncoder() };

/** The fields as (path, type, value bytes), which compares encodings made with different path ids. */
function fieldsOf(fields: Uint8Array, paths: FieldPathIds): [string, number, string][] {
  const reader = new EventFieldsReader();
  const out: [string, number, string][] = [];
  reader.reset(fields);
  while (reader.next()) {
    const { id, type, start, end } = reader.field;
    out.push([paths.paths[id] as string, type, Buffer.from(fields.subarray(start, end)).toString('hex')]);
  }
  return out;
}

/**
 * The head's three Strings (`ts_field`, `raw`, `search_text`), each as the hex of its bytes: a
 * length may be written padded (LEB128 allows it), so the head's own bytes may differ.
 */
function headOf(head: Uint8Array): string[] {
  const strings: string[] = [];
  let at = 0;
  while (at < head.length) {
    let length = 0;
    let scale = 1;
    for (;;) {
      const byte = head[at++] as number;
      length += (byte & 0x7f) * scale;
      scale *= 128;
      if (byte < 0x80) break;
    }
    strings.push(Buffer.from(head.subarray(at, at + length)).toString('hex'));
    at += length;
  }
  return strings;
}

/** The row the flattening route gives: `buildPendingRow` and `valuesText`, then the engine's head and fields encoders. */
function flattened(event: Record<string, unknown>, raw: string) {
  const paths = new FieldPathIds();
  const row = buildPendingRow(event, raw, timestampFields, clock);
  const head = encodeEventHead({ ...row, searchText: valuesText(row.attrs) });
  return { head: headOf(head), fields: fieldsOf(encodeEventFields(row, paths), paths), tsNs: row.tsNs, timed: row.tsField !== '' };
}

function walked(row: EncodedRow, paths: FieldPathIds) {
  return { head: headOf(row.head), fields: fieldsOf(row.fields, paths), tsNs: row.tsNs, timed: row.timed };
}

// Keys that meet every case of flattening: dotted keys that collide with nested ones, array-like
// and numeric keys, reserved paths, timestamp fields, `__proto__`, the empty key and lone surrogates.
const key = fc.oneof(
  fc.constantFrom('a', 'b', 'a.b', 'k', '0', '1', 'ts', '@svc', '@svc.time', 'time', '@index', '%ingest', 'source_type', '__proto__', '', 'é', '\ud800'),
  fc.string({ maxLength: 4 }),
);
const text = fc.oneof(
  fc.constantFrom('2024-03-01T00:00:00Z', '1709251200', 'x', 'é😀', 'a\udc00', '\u0000'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const leaf = fc.oneof(text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constant(2 ** 60), fc.boolean(), fc.constant(null));
const { event } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('event')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  event: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
}));

describe('IngestRowEncoder', () => {
  it('gives every event the row the flattening route gives: the same head, fields and time', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 4 }), (events) => {
        const paths = new FieldPathIds();
        const rows = new IngestRowEncoder(engine, paths, timestampFields, clock);
        for (const generated of events) {
          // as ingest has them: the text, and what JSON.parse makes of it
          const raw = JSON.stringify(generated);
          const parsed = JSON.parse(raw) as Record<string, unknown>;
          expect(walked(rows.event(parsed, raw), paths)).toEqual(flattened(JSON.parse(raw) as Record<string, unknown>, raw));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses an event nested too deep as flattening does, and the next event is encoded whole', () => {
    let deep: unknown = 1;
    for (let i = 0; i < maxFlattenDepth; i++) deep = { d: deep };
    const paths = new FieldPathIds();
    const rows = new IngestRowEncoder(engine, paths, timestampFields, clock);
    const event = { before: 'written first', deep } as Record<string, unknown>;
    expect(() => rows.event(event, JSON.stringify(event))).toThrow(new IngestError(`event nested deeper than ${maxFlattenDepth} levels`));
    expect(() => buildPendingRow(event, JSON.stringify(event), [], clock)).toThrow(IngestError);
    const next = { ts: '2024-03-01T00:00:00Z', n: 1 };
    expect(walked(rows.event(next, JSON.stringify(next)), paths)).toEqual(flattened(next, JSON.stringify(next)));
  });
});

describe('EventWalker', () => {
  const walk = (walker: EventWalker, event: Record<string, unknown>) => {
    const encoder = new SlabEventEncoder();
    const walkedWhole = walker.walk(event, encoder);
    const { fields } = encoder.endRow('', '{}');
    return { walkedWhole, fields };
  };

  it('walks ordinary events itself and leaves a path met twice or a lone surrogate to flattening, writing nothing of them', () => {
    const paths = new FieldPathIds();
    const walker = new EventWalker(paths, ['a.b']);
    expect(walk(walker, { a: { b: 1 }, c: [true, null] })).toMatchObject({ walkedWhole: true });
    expect(walker.times).toEqual([1]);
    expect(walk(walker, { 'a.b': 1, a: { b: 2 } })).toMatchObject({ walkedWhole: false, fields: new Uint8Array(0) });
    expect(walk(walker, { s: 'x\ud800' })).toMatchObject({ walkedWhole: false, fields: new Uint8Array(0) });
    expect(walk(walker, { ['k\udc00']: 1 })).toMatchObject({ walkedWhole: false, fields: new Uint8Array(0) });
    expect(paths.paths).toEqual(['a.b', 'c[0]', 'c[1]']);
  });

  it('gives each path its id once per writer, however many events hold it', () => {
    const paths = new FieldPathIds();
    const walker = new EventWalker(paths, []);
    for (let i = 0; i < 3; i++) walk(walker, { x: i, y: { z: [i] } });
    expect(paths.paths).toEqual(['x', 'y.z[0]']);
  });
});
