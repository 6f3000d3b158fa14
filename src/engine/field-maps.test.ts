import { describe, expect, it } from 'vitest';
import { fieldLayoutOf, firstMapId, nextMapId, promote, type FieldMapRow } from './field-maps.js';
import { noSlot, numberSlotBase, stringSlotCount } from './schema.js';

const row = (mapId: bigint, path: string, slot: number, sourceType = 'a'): FieldMapRow => ({ tenant: 't', indexId: 'i', sourceType, mapId, path, slot });

describe('promote', () => {
  it('gives free slots of their kind to the paths that reach 1 % of the events, most frequent first, keeping the slots given before', () => {
    const current = { strings: new Map([['host', 0]]), numbers: new Map<string, number>() };
    const counts = {
      strings: new Map([
        ['host', 500],
        ['user', 40],
        ['rare', 9],
        ['path', 300],
      ]),
      numbers: new Map([['port', 1000]]),
    };
    const next = promote(current, counts, 1000);
    expect(next?.strings).toEqual(
      new Map([
        ['host', 0],
        ['path', 1],
        ['user', 2],
      ]),
    );
    expect(next?.numbers).toEqual(new Map([['port', numberSlotBase]]));
  });

  it('promotes nothing once the slots of a kind are all taken, and says so when nothing changes', () => {
    const full = new Map(Array.from({ length: stringSlotCount }, (_, k) => [`f${k}`, k] as const));
    expect(promote({ strings: full, numbers: new Map() }, { strings: new Map([['late', 100]]), numbers: new Map() }, 100)).toBeNull();
    expect(promote({ strings: new Map([['a', 0]]), numbers: new Map() }, { strings: new Map([['a', 5]]), numbers: new Map() }, 5)).toBeNull();
  });
});

describe('map ids', () => {
  it('number versions within a lineage and stop at its last version', () => {
    const first = firstMapId(3n);
    expect(first).toBe((3n << 16n) | 1n);
    expect(nextMapId(first)).toBe(first + 1n);
    expect(nextMapId((3n << 16n) | 0xffffn)).toBeNull();
  });
});

describe('fieldLayoutOf', () => {
  const a1 = firstMapId(1n);
  const b1 = firstMapId(2n);
  const rangeA = [1n << 16n, (1n << 16n) | 0xffffn];
  const rangeB = [2n << 16n, (2n << 16n) | 0xffffn];

  it('tells which columns every lineage holds in a slot from its first version, and which slots two lineages give different columns', () => {
    const layout = fieldLayoutOf([row(a1, 'user', 3), row(a1 + 1n, 'user', 3), row(a1 + 1n, 'port', numberSlotBase + 7), row(b1, 'host', 3, 'b'), row(b1, 'user', 9, 'b')]);
    expect(layout.legacy).toBe(false);
    expect(layout.mapRanges).toEqual([rangeA, rangeB]);
    expect(layout.slots.get('user')).toEqual([
      { column: 's3', kind: 'string', mapRanges: [rangeA], shared: true },
      { column: 's9', kind: 'string', mapRanges: [rangeB], shared: false },
    ]);
    expect(layout.slots.get('port')).toEqual([{ column: 'n7', kind: 'number', mapRanges: [rangeA], shared: false }]);
    // user is in a slot from the first version of both lineages; port only from A's second; host only in B.
    expect([...layout.slotted]).toEqual(['s:user']);
  });

  it('marks a store holding rows of map 0 (written before typed slots) as legacy, and a version without slots as a lineage', () => {
    const layout = fieldLayoutOf([row(0n, '', noSlot), row(a1, '', noSlot)]);
    expect(layout).toEqual({ legacy: true, mapRanges: [rangeA], slots: new Map(), slotted: new Set() });
  });
});
