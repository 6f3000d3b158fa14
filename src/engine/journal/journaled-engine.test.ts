import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldPathIds } from '../encode-event-fields.js';
import type { EventBatch } from '../engine.js';
import { sequenceRangesOf } from './journaled-engine.js';

function batchOf(rows: readonly [string, number][]): EventBatch {
  const paths = new FieldPathIds();
  return {
    rows: rows.map(([indexId, seq]) => ({ head: new Uint8Array(), fields: new Uint8Array(), paths, event: { tenant: 't', indexId, sourceType: 's', tsNs: 0n, seq: BigInt(seq) } })),
    extents: [],
  };
}

describe('sequenceRangesOf', () => {
  it('gives each index its runs of consecutive sequence numbers, in any order', () => {
    const ranges = sequenceRangesOf(
      batchOf([
        ['a', 7],
        ['a', 5],
        ['b', 1],
        ['a', 6],
        ['a', 10],
        ['a', 11],
        ['a', 3],
      ]),
    );
    expect(ranges).toEqual(
      new Map([
        [
          't\u0000a',
          [
            { first: 3n, count: 1 },
            { first: 5n, count: 3 },
            { first: 10n, count: 2 },
          ],
        ],
        ['t\u0000b', [{ first: 1n, count: 1 }]],
      ]),
    );
  });

  it('covers every sequence number of the batch and no other', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 60 }), { minLength: 1, maxLength: 40 }), (seqs) => {
        const [runs] = [...sequenceRangesOf(batchOf(seqs.map((seq) => ['a', seq]))).values()];
        const covered = (runs ?? []).flatMap(({ first, count }) => Array.from({ length: count }, (_, i) => Number(first) + i));
        expect(covered).toEqual([...new Set(seqs)].sort((x, y) => x - y));
      }),
    );
  });
});
