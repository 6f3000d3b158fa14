/**
 * Which typed slot holds which field, per index and source type (schema v10, docs/engine.md "Typed
 * slots"). A map id is a lineage (high bits) and a version (low 16 bits). Each version of a
 * lineage keeps every slot of the one before and may add some, so a field keeps its slot from the
 * version that promoted it on, and a query reads it from the slot column (`s<k>`, `n<k>`) for map
 * ids from that version to the lineage's end, and from `rest` (or legacy attrs, map 0) elsewhere.
 */
import type { StoredLayout, StoredSlot } from '../core/index.js';
import { noSlot, numberSlotBase, numberSlotCount, slotColumn, stringSlotCount } from './schema.js';

/** Bits of a map id that hold the version. */
const versionBits = 16n;
const versionMask = (1n << versionBits) - 1n;

/** One version of a lineage: its id and its slots. */
export interface FieldMapVersion {
  readonly tenant: string;
  readonly indexId: string;
  readonly sourceType: string;
  readonly mapId: bigint;
  readonly slots: SlotMap;
}

/** A version's slots: path → string slot, path → number slot (numbered from `numberSlotBase`). */
export interface SlotMap {
  readonly strings: ReadonlyMap<string, number>;
  readonly numbers: ReadonlyMap<string, number>;
}

export const noSlots: SlotMap = { strings: new Map(), numbers: new Map() };

/** A stored `field_maps` row. */
export interface FieldMapRow {
  readonly tenant: string;
  readonly indexId: string;
  readonly sourceType: string;
  readonly mapId: bigint;
  readonly path: string;
  readonly slot: number;
}

/** The lineage part of a map id. */
export function lineageOf(mapId: bigint): bigint {
  return mapId >> versionBits;
}

/** The first map id of a new lineage: `lineage` is any positive number below 2^48. */
export function firstMapId(lineage: bigint): bigint {
  return (lineage << versionBits) | 1n;
}

/** The id of the version after `mapId`, or null when the lineage has no version left. */
export function nextMapId(mapId: bigint): bigint | null {
  return (mapId & versionMask) === versionMask ? null : mapId + 1n;
}

/** Groups stored rows into versions (the legacy marker rows are not versions). */
export function versionsOf(rows: readonly FieldMapRow[]): FieldMapVersion[] {
  const byId = new Map<string, { tenant: string; indexId: string; sourceType: string; mapId: bigint; slots: { strings: Map<string, number>; numbers: Map<string, number> } }>();
  for (const row of rows) {
    if (row.mapId === 0n) continue;
    const key = `${row.tenant}\u0000${row.indexId}\u0000${row.mapId}`;
    let version = byId.get(key);
    if (version === undefined) {
      version = { tenant: row.tenant, indexId: row.indexId, sourceType: row.sourceType, mapId: row.mapId, slots: { strings: new Map(), numbers: new Map() } };
      byId.set(key, version);
    }
    if (row.slot !== noSlot) (row.slot >= numberSlotBase ? version.slots.numbers : version.slots.strings).set(row.path, row.slot);
  }
  return [...byId.values()];
}

/**
 * How a query over these indexes reads each column, from their stored maps: every lineage's
 * id range, per path the slots holding it with the lineages that put it there, whether another
 * path shares a slot, and which (path, kind) every lineage holds in a slot from its first version.
 */
export function fieldLayoutOf(rows: readonly FieldMapRow[]): StoredLayout {
  const legacy = rows.some((row) => row.mapId === 0n);
  // Per lineage: its first version, and per `kind:path` its slot and the version that promoted it (slots never move within a lineage).
  const lineages = new Map<bigint, { first: bigint; paths: Map<string, { slot: number; from: bigint }> }>();
  const versions = versionsOf(rows).sort((a, b) => (a.mapId < b.mapId ? -1 : a.mapId > b.mapId ? 1 : 0));
  for (const version of versions) {
    const id = lineageOf(version.mapId);
    let lineage = lineages.get(id);
    if (lineage === undefined) lineages.set(id, (lineage = { first: version.mapId, paths: new Map() }));
    for (const [path, slot] of [...version.slots.strings, ...version.slots.numbers]) {
      const key = `${slot >= numberSlotBase ? 'n' : 's'}:${path}`;
      if (!lineage.paths.has(key)) lineage.paths.set(key, { slot, from: version.mapId });
    }
  }
  const mapRanges: [bigint, bigint][] = [];
  const uses = new Map<string, { column: string; kind: 'string' | 'number'; mapRanges: [bigint, bigint][] }[]>();
  const columnPaths = new Map<string, Set<string>>();
  const fromFirst = new Map<string, number>();
  for (const [id, { first, paths }] of lineages) {
    const range: [bigint, bigint] = [id << versionBits, (id << versionBits) | versionMask];
    mapRanges.push(range);
    for (const [key, { slot, from }] of paths) {
      const path = key.slice(2);
      const column = slotColumn(slot);
      let pathUses = uses.get(path);
      if (pathUses === undefined) uses.set(path, (pathUses = []));
      let use = pathUses.find((u) => u.column === column);
      if (use === undefined) pathUses.push((use = { column, kind: slot >= numberSlotBase ? 'number' : 'string', mapRanges: [] }));
      use.mapRanges.push(range);
      let holders = columnPaths.get(column);
      if (holders === undefined) columnPaths.set(column, (holders = new Set()));
      holders.add(path);
      if (from === first) fromFirst.set(key, (fromFirst.get(key) ?? 0) + 1);
    }
  }
  const slots = new Map<string, StoredSlot[]>();
  for (const [path, pathUses] of uses)
    slots.set(
      path,
      pathUses.map((use) => ({ ...use, shared: (columnPaths.get(use.column)?.size ?? 0) > 1 })),
    );
  const slotted = new Set([...fromFirst].filter(([, n]) => n === lineages.size).map(([key]) => key));
  return { legacy, mapRanges, slots, slotted };
}

/** Share of an index's events a field must reach to be promoted to a slot. */
export const promotionShare = 0.01;

/** Per path, how many events held it as a string and as a number. */
export interface PathCounts {
  readonly strings: ReadonlyMap<string, number>;
  readonly numbers: ReadonlyMap<string, number>;
}

/**
 * Decides the slots of the next version: the current slots, plus the (path, type) pairs that
 * reach `promotionShare` of the events counted, most frequent first, while slots of the type are
 * free. Null when nothing new is promoted.
 */
export function promote(current: SlotMap, counts: PathCounts, events: number): SlotMap | null {
  const strings = promoteKind(current.strings, counts.strings, events, 0, stringSlotCount);
  const numbers = promoteKind(current.numbers, counts.numbers, events, numberSlotBase, numberSlotCount);
  if (strings === null && numbers === null) return null;
  return { strings: strings ?? current.strings, numbers: numbers ?? current.numbers };
}

function promoteKind(current: ReadonlyMap<string, number>, counts: ReadonlyMap<string, number>, events: number, base: number, count: number): Map<string, number> | null {
  const used = new Set(current.values());
  if (used.size >= count) return null;
  const threshold = Math.max(1, events * promotionShare);
  const candidates = [...counts].filter(([path, n]) => n >= threshold && !current.has(path)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (candidates.length === 0) return null;
  const next = new Map(current);
  let slot = base;
  for (const [path] of candidates) {
    while (slot < base + count && used.has(slot)) slot++;
    if (slot >= base + count) break;
    next.set(path, slot);
    used.add(slot);
  }
  return next.size === current.size ? null : next;
}
