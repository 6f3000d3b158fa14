import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinaryWriter, ChunkedWriter } from './binary-writer.js';
import { RowSlabWriter } from './row-slabs.js';

// What a value is written as, by a plain writer: the reference for the other two.
type Value = { kind: 'string'; text: string } | { kind: 'float64'; value: number } | { kind: 'varUInt'; value: number };

const value: fc.Arbitrary<Value> = fc.oneof(
  fc.record({ kind: fc.constant('string' as const), text: fc.string({ unit: fc.constantFrom('a', 'é', '😀', '\n'), maxLength: 120 }) }),
  fc.record({ kind: fc.constant('float64' as const), value: fc.double() }),
  fc.record({ kind: fc.constant('varUInt' as const), value: fc.nat() }),
);

function write(writer: BinaryWriter, v: Value): void {
  if (v.kind === 'string') writer.string(v.text);
  else if (v.kind === 'float64') writer.float64(v.value);
  else writer.varUInt(v.value);
}

function plain(values: readonly Value[]): Buffer {
  const writer = new BinaryWriter(1);
  for (const v of values) write(writer, v);
  return Buffer.from(writer.bytes());
}

describe('ChunkedWriter', () => {
  it('holds in its chunks, in order, exactly what a plain writer writes, however small it starts', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 60 }), fc.integer({ min: 1, max: 64 }), (values, initial) => {
        const writer = new ChunkedWriter(initial);
        for (const v of values) write(writer, v);
        expect(Buffer.concat(writer.chunks())).toEqual(plain(values));
      }),
    );
  });

  it('starts a new chunk when full rather than copying what it holds', () => {
    const writer = new ChunkedWriter(4);
    writer.string('abc'); // 4 bytes: full
    writer.string('defgh');
    const chunks = writer.chunks();
    expect(chunks.map((c) => Buffer.from(c).toString('latin1'))).toEqual(['\u0003abc', '\u0005defgh']);
  });
});

describe('RowSlabWriter', () => {
  it('gives each row as written, also rows that move to a new slab, and never changes an earlier row', () => {
    fc.assert(
      fc.property(fc.array(fc.array(value, { maxLength: 8 }), { maxLength: 40 }), fc.integer({ min: 1, max: 200 }), (rows, slabBytes) => {
        const writer = new RowSlabWriter(slabBytes);
        const written = rows.map((row) => {
          writer.startRow();
          for (const v of row) write(writer, v);
          return writer.endRow();
        });
        expect(written.map((bytes) => Buffer.from(bytes))).toEqual(rows.map((row) => plain(row)));
      }),
    );
  });

  it('drops what a row that never ended wrote when the next row starts', () => {
    const writer = new RowSlabWriter(64);
    writer.string('lost');
    writer.startRow();
    writer.string('kept');
    expect(Buffer.from(writer.endRow())).toEqual(plain([{ kind: 'string', text: 'kept' }]));
  });
});
