import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeEventFields, EventFieldsReader, FieldPathIds } from './encode-event-fields.js';
import type { EventFieldsInput } from './engine.js';

type Read = [path: string, type: 'String' | 'Int64' | 'Float64' | 'Null', value: string | number | null];
const typeNames = ['Float64', 'Int64', 'String', 'Null'] as const;

/** Reads encoded fields back as (path, type, value), decoding each value as the engine's Native reader would. */
function readBack(bytes: Uint8Array, paths: FieldPathIds): Read[] {
  const reader = new EventFieldsReader();
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const out: Read[] = [];
  reader.reset(bytes);
  while (reader.next()) {
    const { id, type, start, end } = reader.field;
    const name = typeNames[type] ?? 'Null';
    let value: string | number | null = null;
    if (name === 'String') {
      let at = start;
      while ((buffer[at++] as number) >= 0x80); // the LEB128 length
      value = buffer.toString('utf8', at, end);
    } else if (name !== 'Null') {
      expect(end - start).toBe(8);
      value = buffer.readDoubleLE(start);
    }
    out.push([paths.paths[id] as string, name, value]);
  }
  return out;
}

describe('encodeEventFields', () => {
  it('writes each field as its path id and catalog type, then its value as the block holds it, nulls last', () => {
    const paths = new FieldPathIds();
    const event: EventFieldsInput = { attrs: { user: 'ann', n: 7, ratio: 0.5, big: 2 ** 60 }, nullPaths: ['gone'] };
    expect(readBack(encodeEventFields(event, paths), paths)).toEqual([
      ['user', 'String', 'ann'],
      ['n', 'Int64', 7],
      ['ratio', 'Float64', 0.5],
      ['big', 'Float64', 2 ** 60], // beyond 2^53: the catalog has counted such numbers as Float64
      ['gone', 'Null', null],
    ]);
  });

  it("gives a path one id for all of a writer's events, so an event's fields name paths by number", () => {
    const paths = new FieldPathIds();
    const first = encodeEventFields({ attrs: { a: 'x', b: 1 }, nullPaths: [] }, paths);
    const second = encodeEventFields({ attrs: { b: 2, c: 'y' }, nullPaths: ['a'] }, paths);
    expect(paths.paths).toEqual(['a', 'b', 'c']);
    expect([...first]).toEqual([0 * 4 + 2, 1, 0x78, 1 * 4 + 1, ...doubleBytes(1)]);
    expect(readBack(second, paths)).toEqual([
      ['b', 'Int64', 2],
      ['c', 'String', 'y'],
      ['a', 'Null', null],
    ]);
    expect(readBack(first, paths)).toEqual([
      ['a', 'String', 'x'],
      ['b', 'Int64', 1],
    ]);
  });

  it('reads back any event as given: any text, any double, any number of paths', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('é', '😀', '\u0000', '"'), fc.string({ maxLength: 1 })), maxLength: 300 });
    const value = fc.oneof(text, fc.double({ noNaN: true }), fc.integer());
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 200 }), fc.uniqueArray(fc.string({ maxLength: 12 }), { maxLength: 5 }), (attrs, nullPaths) => {
        const paths = new FieldPathIds();
        const expected = [
          ...Object.entries(attrs).map(([path, v]): Read => [path, typeof v === 'string' ? 'String' : Number.isSafeInteger(v) ? 'Int64' : 'Float64', v]),
          ...nullPaths.map((path): Read => [path, 'Null', null]),
        ];
        expect(readBack(encodeEventFields({ attrs, nullPaths }, paths), paths)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe('EventFieldsReader', () => {
  it('stops at the end of bytes that break off inside a field instead of reading past them', () => {
    const paths = new FieldPathIds();
    const whole = encodeEventFields({ attrs: { a: 'long enough text' }, nullPaths: [] }, paths);
    const reader = new EventFieldsReader();
    reader.reset(whole.subarray(0, 5));
    expect(reader.next()).toBe(true);
    expect(reader.field).toMatchObject({ id: 0, type: 2, start: 1, end: 5 });
    expect(reader.next()).toBe(false);
  });
});

function doubleBytes(value: number): number[] {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleLE(value);
  return [...bytes];
}
