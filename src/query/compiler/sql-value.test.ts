import { describe, expect, it } from 'vitest';
import type { StoredLayout, StoredSlot } from '../../core/index.js';
import { attrsValue, missingValue, nullNumber, nullString, storedValue } from './sql-value.js';

describe('attrsValue', () => {
  const every = {
    s: 'attrs.`user.id`.:String',
    n: 'coalesce(toFloat64(attrs.`user.id`.:Int64), attrs.`user.id`.:Float64)',
    exists: "(isNotNull(attrs.`user.id`) OR has(null_paths, 'user.id'))",
  };

  it('reads every variant when the types are unknown, and the same when the catalog lists them all', () => {
    expect(attrsValue('user.id')).toEqual(every);
    expect(attrsValue('user.id', ['Float64', 'Int64', 'Null', 'String'])).toEqual(every);
  });

  it('reads only the variants the catalog lists', () => {
    expect(attrsValue('user.id', ['String'])).toEqual({ s: every.s, n: nullNumber, exists: 'isNotNull(attrs.`user.id`)' });
    expect(attrsValue('user.id', ['Int64']).n).toBe('toFloat64(attrs.`user.id`.:Int64)');
    expect(attrsValue('user.id', ['Float64']).n).toBe('attrs.`user.id`.:Float64');
    expect(attrsValue('user.id', ['Float64', 'Int64']).s).toBe(nullString);
  });

  it('tests null_paths only for a path that held null, and a path with values only as null', () => {
    expect(attrsValue('user.id', ['Null'])).toEqual({ s: nullString, n: nullNumber, exists: "has(null_paths, 'user.id')" });
  });

  it('reads a path the catalog does not hold as a missing column', () => {
    expect(attrsValue('user.id', [])).toEqual(missingValue);
  });

  it('counts a type ingest does not write as a stored value: it exists, though neither a string nor a number', () => {
    expect(attrsValue('user.id', ['Bool'])).toEqual({ s: nullString, n: nullNumber, exists: 'isNotNull(attrs.`user.id`)' });
  });
});

describe('storedValue', () => {
  // Two lineages of maps: A (ids 65536-131071) holds the strings of `user` in s3 from its first
  // version and the numbers of `port` in n7 from a later one; B (131072-196607) holds `user` in
  // s9 from its first version and `host` in s3, the slot A gives `user`.
  const lineageA: [bigint, bigint] = [65_536n, 131_071n];
  const lineageB: [bigint, bigint] = [131_072n, 196_607n];
  const slot = (column: string, ranges: [bigint, bigint][], shared = false): StoredSlot => ({
    column,
    kind: column.startsWith('s') ? 'string' : 'number',
    mapRanges: ranges,
    shared,
  });
  const layout: StoredLayout = {
    legacy: false,
    mapRanges: [lineageA, lineageB],
    slots: new Map<string, StoredSlot[]>([
      ['user', [slot('s3', [lineageA], true), slot('s9', [lineageB])]],
      ['host', [slot('s3', [lineageB], true)]],
      ['port', [slot('n7', [lineageA])]],
    ]),
    slotted: new Set(['s:user']),
  };

  it('reads a part every map holds in one slot from that slot alone, the others from the rest maps', () => {
    const one: StoredLayout = { legacy: false, mapRanges: [lineageA], slots: new Map([['user', [slot('s3', [lineageA])]]]), slotted: new Set(['s:user']) };
    expect(storedValue('user', undefined, one)).toEqual({
      s: 's3',
      n: "rest_n['user']",
      exists: "has(field_paths, 'user')",
      // The index narrows where the numbers are read, from rest_n, and not for the strings in s3.
      present: { lookup: "has(field_paths, 'user')", strings: false, numbers: true },
    });
    // Strings only and no null: the slot alone says where the column exists.
    expect(storedValue('user', ['String'], one)).toEqual({ s: 's3', n: nullNumber, exists: 'isNotNull(s3)' });
  });

  it('reads every slot that may hold a part, telling rows apart by map only where a slot is shared', () => {
    expect(storedValue('user', ['String'], layout)).toEqual({
      s: 'coalesce(if(field_map BETWEEN 65536 AND 131071, s3, NULL), s9)',
      n: nullNumber,
      exists: "has(field_paths, 'user')",
    });
    // Promoted after the first version of A and absent from B's slots: earlier rows keep it in rest_n.
    expect(storedValue('port', ['Int64'], layout)).toEqual({
      s: nullString,
      n: "coalesce(n7, rest_n['port'])",
      exists: "has(field_paths, 'port')",
      present: { lookup: "has(field_paths, 'port')", strings: false, numbers: true },
    });
    expect(storedValue('host', ['String'], layout).s).toBe("coalesce(if(field_map BETWEEN 131072 AND 196607, s3, NULL), rest_s['host'])");
  });

  it('reads a column no map holds in a slot from the rest maps, and rows of map 0 from attrs', () => {
    expect(storedValue('port', undefined, { ...layout, slots: new Map(), slotted: new Set() })).toEqual({
      s: "rest_s['port']",
      n: "rest_n['port']",
      exists: "has(field_paths, 'port')",
      present: { lookup: "has(field_paths, 'port')", strings: true, numbers: true },
    });
    const upgraded = storedValue('host', ['String', 'Null'], { ...layout, legacy: true, slots: new Map(), slotted: new Set() });
    expect(upgraded.s).toBe("coalesce(rest_s['host'], attrs.`host`.:String)");
    expect(upgraded.exists).toBe("(has(field_paths, 'host') OR (isNotNull(attrs.`host`) OR has(null_paths, 'host')))");
    // field_paths lists no column of a map-0 row, so it cannot narrow where attrs is read.
    expect(upgraded.present).toBeUndefined();
    // A store holding only rows of map 0 reads attrs alone.
    expect(storedValue('host', ['String'], { legacy: true, mapRanges: [], slots: new Map(), slotted: new Set() })).toEqual(attrsValue('host', ['String']));
  });

  it('reads a column the catalog does not hold as missing', () => {
    expect(storedValue('port', [], layout)).toEqual({ s: nullString, n: nullNumber, exists: '0' });
  });
});
