/**
 * What an insert's encoder keeps of each path, per lineage (tenant, index, source type): its name
 * encoded, the slots its latest map gives it, and the batch's field catalog counts, so no view has
 * to expand every row's paths (docs/engine.md, "Typed slots").
 */
import { floorDiv } from '../core/index.js';
import { numberSlotBase } from './schema.js';
import { binaryString } from './binary-writer.js';
import type { SlotMap } from './field-maps.js';

/** One field catalog row: how many events of a day held a path with a type. */
export interface CatalogRow {
  readonly tenant: string;
  readonly indexId: string;
  /** The source type of the rows counted: the field maps' statistics are per source type, the catalog is not. */
  readonly sourceType: string;
  /** A time in the day (nanoseconds), which the statement turns into the day as the engine reads it. */
  readonly dayNs: bigint;
  readonly path: string;
  readonly type: CatalogType;
  readonly rows: number;
}

export type CatalogType = 'Float64' | 'Int64' | 'String' | 'Null';
const catalogTypes: readonly CatalogType[] = ['Float64', 'Int64', 'String', 'Null'];
export const float64Type = 0;
export const int64Type = 1;
export const stringType = 2;
export const nullType = 3;

/** The field map a row is written with: its lineage (tenant, index, source type), map id and slots. */
export interface RowMap {
  readonly tenant: string;
  readonly indexId: string;
  readonly sourceType: string;
  readonly mapId: bigint;
  readonly slots: SlotMap;
}

/** What the encoder keeps of a path within one lineage: its name encoded as a String, its slots, this batch's counts. */
export class PathEntry {
  readonly key: Uint8Array;
  stringSlot = -1;
  numberSlot = -1;
  /** The batch whose counts `counts` holds. */
  batch = -1;
  /** Catalog counts of the batch, at [day * 4 + type] for the lineage's days of the batch. */
  counts: number[] = [];

  constructor(readonly path: string) {
    this.key = binaryString(path);
  }

  /** Counts one row of the batch holding the path at `at` (day and type), listing the entry in `touched` the first time in the batch. */
  count(batch: number, touched: PathEntry[], at: number): void {
    if (this.batch !== batch) {
      this.batch = batch;
      this.counts = [];
      touched.push(this);
    }
    this.counts[at] = (this.counts[at] ?? 0) + 1;
  }
}

/** A lineage's paths, with the slots of the latest map encoded. */
export class LineagePaths {
  readonly entries = new Map<string, PathEntry>();
  mapId = -1n;
  slots: SlotMap | null = null;

  /** Takes a map of the lineage (slots are only ever added along a lineage). */
  use(map: RowMap): void {
    if (map.mapId === this.mapId && map.slots === this.slots) return;
    this.mapId = map.mapId;
    this.slots = map.slots;
    for (const entry of this.entries.values()) {
      entry.stringSlot = map.slots.strings.get(entry.path) ?? -1;
      entry.numberSlot = (map.slots.numbers.get(entry.path) ?? numberSlotBase - 1) - numberSlotBase;
    }
  }

  entry(path: string): PathEntry {
    let entry = this.entries.get(path);
    if (entry === undefined) {
      entry = new PathEntry(path);
      const slots = this.slots as SlotMap;
      entry.stringSlot = slots.strings.get(path) ?? -1;
      entry.numberSlot = (slots.numbers.get(path) ?? numberSlotBase - 1) - numberSlotBase;
      this.entries.set(path, entry);
    }
    return entry;
  }
}

const dayNs = 86_400_000_000_000n;

/** One lineage within a batch: its map, the days its rows fall on, the paths it counted. */
export interface BatchLineage {
  readonly map: RowMap;
  readonly paths: LineagePaths;
  readonly days: bigint[];
  readonly touched: PathEntry[];
  /** Per writer of the batch's rows (its `FieldPathIds`), the entry of each path id met. */
  readonly entriesByWriter: Map<object, (PathEntry | undefined)[]>;
  /** The day of the last row seen: [start, end) in nanoseconds and its index in `days`. */
  dayStart: bigint;
  dayEnd: bigint;
  day: number;
}

/**
 * The lineage of `map` within a batch, made on its first row: the encoder's paths of the lineage
 * (kept across batches in `lineages`) with the map's slots.
 */
export function lineageIn(inBatch: Map<RowMap, BatchLineage>, lineages: Map<string, LineagePaths>, map: RowMap): BatchLineage {
  let lineage = inBatch.get(map);
  if (lineage !== undefined) return lineage;
  const key = `${map.tenant}\u0000${map.indexId}\u0000${map.sourceType}`;
  let paths = lineages.get(key);
  if (paths === undefined) lineages.set(key, (paths = new LineagePaths()));
  paths.use(map);
  lineage = {
    map,
    paths,
    days: [],
    touched: [],
    entriesByWriter: new Map(),
    dayStart: 0n,
    dayEnd: 0n,
    day: -1,
  };
  inBatch.set(map, lineage);
  return lineage;
}

/** Moves a lineage's current day to the one holding `tsNs`. */
export function enterDay(lineage: BatchLineage, tsNs: bigint): BatchLineage {
  const start = floorDiv(tsNs, dayNs) * dayNs;
  let day = lineage.days.indexOf(start);
  if (day === -1) day = lineage.days.push(start) - 1;
  lineage.day = day;
  lineage.dayStart = start;
  lineage.dayEnd = start + dayNs;
  return lineage;
}

export function catalogRows(lineages: Iterable<BatchLineage>): CatalogRow[] {
  const out: CatalogRow[] = [];
  for (const { map, days, touched } of lineages) {
    for (const entry of touched) {
      const counts = entry.counts;
      for (let at = 0; at < counts.length; at++) {
        const rows = counts[at];
        if (rows === undefined || rows === 0) continue;
        out.push({
          tenant: map.tenant,
          indexId: map.indexId,
          sourceType: map.sourceType,
          dayNs: days[at >> 2] as bigint,
          path: entry.path,
          type: catalogTypes[at & 3] as CatalogType,
          rows,
        });
      }
    }
  }
  return out;
}
