import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldPathIds } from '../encode-event-fields.js';
import type { EventBatch } from '../engine.js';
import { JournalFormatError } from './journal-errors.js';
import { decodeJournalRecord, encodeJournalRecord } from './journal-record.js';

/** A batch whose rows come from up to three writers and places, with arbitrary bytes and 64-bit numbers. */
const batches: fc.Arbitrary<EventBatch> = fc
  .record({
    writerPaths: fc.array(fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 6 }), { minLength: 1, maxLength: 3 }),
    places: fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 3 }),
    rows: fc.array(
      fc.record({
        writer: fc.nat(),
        place: fc.nat(),
        tsNs: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        seq: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        head: fc.uint8Array({ maxLength: 40 }),
        fields: fc.uint8Array({ maxLength: 40 }),
      }),
      { maxLength: 20 },
    ),
    extents: fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })), { maxLength: 3 }),
  })
  .map(({ writerPaths, places, rows, extents }) => {
    const writers = writerPaths.map((paths) => {
      const ids = new FieldPathIds();
      for (const path of paths) ids.idOf(path);
      return ids;
    });
    return {
      rows: rows.map((row) => {
        const [tenant, indexId, sourceType] = places[row.place % places.length] as [string, string, string];
        return {
          head: row.head,
          fields: row.fields,
          paths: writers[row.writer % writers.length] as FieldPathIds,
          event: { tenant, indexId, sourceType, tsNs: row.tsNs, seq: row.seq },
        };
      }),
      extents: extents.map(([tenant, indexId, ns]) => ({ tenant, indexId, minTsNs: ns, maxTsNs: ns })),
    };
  });

/** What a batch means, without object identity: the paths each row's ids name. */
function meaning(batch: EventBatch) {
  return {
    rows: batch.rows.map((row) => ({ head: [...row.head], fields: [...row.fields], paths: [...row.paths.paths], event: row.event })),
    extents: batch.extents,
  };
}

describe('journal records', () => {
  it('give back the batch they were made from', () => {
    fc.assert(
      fc.property(batches, (batch) => {
        expect(meaning(decodeJournalRecord(encodeJournalRecord(batch)))).toEqual(meaning(batch));
      }),
    );
  });

  it('keep rows of one writer sharing one set of path ids', () => {
    const paths = new FieldPathIds();
    paths.idOf('a.b');
    paths.idOf('c');
    const event = { tenant: 't', indexId: 'i', sourceType: 's', tsNs: 1n, seq: 1n };
    const decoded = decodeJournalRecord(
      encodeJournalRecord({ rows: [0, 1].map((n) => ({ head: new Uint8Array([n]), fields: new Uint8Array(), paths, event: { ...event, seq: BigInt(n) } })), extents: [] }),
    );
    expect(decoded.rows[0]?.paths).toBe(decoded.rows[1]?.paths);
    expect(decoded.rows[0]?.paths.idOf('c')).toBe(1);
  });

  it('refuse bytes cut short or with bytes left over, as a format error', () => {
    fc.assert(
      fc.property(batches, fc.nat(), (batch, cut) => {
        const bytes = encodeJournalRecord(batch);
        const at = cut % bytes.length;
        expect(() => decodeJournalRecord(bytes.subarray(0, at))).toThrow(JournalFormatError);
        expect(() => decodeJournalRecord(Buffer.concat([bytes, Buffer.from([0])]))).toThrow(JournalFormatError);
      }),
    );
  });
});
