import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlString } from '../core/index.js';
import { ChdbEngine } from './chdb/chdb-engine.js';
import { ArrayOffsets, nativeBlockStart, nativeColumnStart, NullableFloat64Column, NullableStringColumn } from './native-columns.js';
import { BinaryWriter } from './binary-writer.js';

// The builders are checked against the engine's own Native reader: what it reads back from a
// block they wrote must be every row as given.
const path = mkdtempSync(join(tmpdir(), 'vigil-native-columns-'));
const engine = new ChdbEngine({ path: join(path, 'engine'), poolSize: 1 });

beforeAll(async () => {
  await engine.ping();
});

afterAll(async () => {
  await engine.close();
  rmSync(path, { recursive: true, force: true });
});

interface Row {
  readonly s: string | null;
  readonly n: number | null;
  readonly m: readonly (readonly [string, string])[];
}

const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', 'é', '😀', '\u0000', '\n'), fc.string({ maxLength: 1 })), maxLength: 200 });
const row: fc.Arbitrary<Row> = fc.record({
  s: fc.option(text, { nil: null }),
  n: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
  m: fc.uniqueArray(fc.tuple(text, text), { maxLength: 4, selector: ([key]) => key }),
});

function stringBytes(text: string): Uint8Array {
  const writer = new BinaryWriter(16);
  writer.string(text);
  return Uint8Array.from(writer.bytes());
}

function doubleBytes(value: number): Uint8Array {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleLE(value);
  return bytes;
}

/** One block of the rows: s Nullable(String), n Nullable(Float64), m Map(String, Nullable(String)). */
function block(rows: readonly Row[]): Buffer {
  const s = new NullableStringColumn(rows.length);
  const n = new NullableFloat64Column(rows.length);
  const offsets = new ArrayOffsets(rows.length);
  const keys = new BinaryWriter(64);
  const values = new BinaryWriter(64);
  rows.forEach((r, i) => {
    if (r.s !== null) {
      const value = stringBytes(r.s);
      s.setBytes(i, value, 0, value.length);
    }
    if (r.n !== null) n.setBytes(i, doubleBytes(r.n), 0);
    for (const [key, value] of r.m) {
      keys.string(key);
      values.string(value);
    }
    offsets.end(i, r.m.length);
  });
  return Buffer.concat([
    nativeBlockStart(3, rows.length),
    nativeColumnStart('s', 'Nullable(String)'),
    ...s.chunks(),
    nativeColumnStart('n', 'Nullable(Float64)'),
    ...n.chunks(),
    nativeColumnStart('m', 'Map(String, Nullable(String))'),
    offsets.bytes(),
    keys.bytes(),
    new Uint8Array(offsets.total), // the values' null map: none is null
    values.bytes(),
  ]);
}

describe('Native column builders against the engine', () => {
  it('write blocks the engine reads back row for row: nulls anywhere, any text, maps of any size', async () => {
    const file = join(path, 'block.native');
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 30 }), async (rows) => {
        writeFileSync(file, block(rows));
        const result = await engine.query<{ s: string | null; n: number | null; m: Record<string, string> }>(`SELECT s, n, m FROM file(${sqlString(file)}, Native)`);
        expect(result.rows).toEqual(rows.map((r) => ({ s: r.s, n: r.n, m: Object.fromEntries(r.m) }))); // -0 too
      }),
      // -0 once failed here: the engine keeps it, as it keeps every double
      {
        numRuns: 60,
        examples: [
          [
            [
              { s: null, n: -0, m: [] },
              { s: '', n: null, m: [['', '']] },
            ],
          ],
        ],
      },
    );
  });

  it('refuse a value for a row before the last one given: a slot holds one value per row', () => {
    const column = new NullableStringColumn(3);
    const value = stringBytes('b');
    column.setBytes(1, value, 0, value.length);
    expect(() => column.setBytes(1, value, 0, value.length)).toThrow(/given row 1 after row 1/);
    expect(() => column.setBytes(0, value, 0, value.length)).toThrow(/given row 0 after row 1/);
  });
});
