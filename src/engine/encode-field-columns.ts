/**
 * Encodes the columns a batch gives its RowBinary rows (after `search_text`: `seq`, then schema
 * v10's `field_map`, `field_paths`, the rest maps and the typed slots) and counts the batch's field
 * catalog rows while it goes, so no view has to expand every row's paths (docs/engine.md, "Typed
 * slots").
 */
import type { EncodedEventRow } from './engine.js';
import { numberSlotBase, numberSlotCount, stringSlotCount } from './schema.js';
import { RowBinaryWriter, rowBinaryString } from './row-binary-writer.js';
import { RowSlabs } from './row-slabs.js';
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
const float64Type = 0;
const int64Type = 1;
const stringType = 2;
const nullType = 3;

/** A batch's rows as byte chunks to write one after another (each row's head, then its field columns), and the catalog rows they add. */
export interface EncodedBatch {
  readonly chunks: readonly Uint8Array[];
  readonly catalog: readonly CatalogRow[];
}

/** The field map a row is written with: its lineage (tenant, index, source type), map id and slots. */
export interface RowMap {
  readonly tenant: string;
  readonly indexId: string;
  readonly sourceType: string;
  readonly mapId: bigint;
  readonly slots: SlotMap;
}

/** What the encoder keeps of a path within one lineage: its name as RowBinary, its slots, this batch's counts. */
class PathEntry {
  readonly key: Uint8Array;
  stringSlot = -1;
  numberSlot = -1;
  /** The batch whose counts `counts` holds. */
  batch = -1;
  /** Catalog counts of the batch, at [day * 4 + type] for the lineage's days of the batch. */
  counts: number[] = [];

  constructor(readonly path: string) {
    this.key = rowBinaryString(path);
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
class LineagePaths {
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

/** One lineage within a batch: its map, the days its rows fall on, the paths it counted. */
interface BatchLineage {
  readonly map: RowMap;
  readonly paths: LineagePaths;
  readonly days: bigint[];
  readonly touched: PathEntry[];
  /** The day of the last row seen: [start, end) in nanoseconds and its index in `days`. */
  dayStart: bigint;
  dayEnd: bigint;
  day: number;
}

const dayNs = 86_400_000_000_000n;

/**
 * Encodes the field columns of rows for inserts, keeping per lineage what it learnt of each path
 * (its name encoded, its slots), so a path costs one map lookup per row. One per engine.
 */
export class FieldColumnEncoder {
  private readonly lineages = new Map<string, LineagePaths>();
  private batch = 0;
  // One writer for every row, grown once to the largest; rows are copied out into slabs.
  private readonly writer = new RowBinaryWriter(64 * 1024);
  private readonly slabs = new RowSlabs();
  // Per row: the value of each slot, or undefined (reset by `filled`).
  private readonly strings = new Array<string | undefined>(stringSlotCount).fill(undefined);
  private readonly numbers = new Array<number | undefined>(numberSlotCount).fill(undefined);

  /** Forgets the lineages of an index (its events and maps were deleted). */
  forget(tenant: string, indexId: string): void {
    const prefix = `${tenant}\u0000${indexId}\u0000`;
    for (const key of [...this.lineages.keys()]) if (key.startsWith(prefix)) this.lineages.delete(key);
  }

  /** Encodes rows, each with the map of its (tenant, index, source type): `maps[i]` for `rows[i]`, one object per lineage. */
  encode(encoded: readonly EncodedEventRow[], maps: readonly RowMap[]): EncodedBatch {
    const batch = ++this.batch;
    const writer = this.writer;
    const chunks = new Array<Uint8Array>(encoded.length * 2);
    const inBatch = new Map<RowMap, BatchLineage>();
    const { strings, numbers } = this;
    const filledStrings: number[] = [];
    const filledNumbers: number[] = [];
    const restStrings: PathEntry[] = [];
    const restStringValues: string[] = [];
    const restNumbers: PathEntry[] = [];
    const restNumberValues: number[] = [];
    let last: BatchLineage | null = null;
    for (let r = 0; r < encoded.length; r++) {
      const head = encoded[r] as EncodedEventRow;
      const row = head.event;
      writer.reset();
      const map = maps[r] as RowMap;
      let lineage: BatchLineage = last !== null && last.map === map ? last : this.lineageIn(inBatch, map);
      last = lineage;
      const tsNs = row.tsNs;
      if (tsNs < lineage.dayStart || tsNs >= lineage.dayEnd) lineage = enterDay(lineage, tsNs);
      const dayBase = lineage.day * 4;
      const touched = lineage.touched;
      const paths = lineage.paths;

      writer.uint64(row.seq);
      writer.uint64(map.mapId);
      const pathCount = writer.countPlaceholder();
      let count = 0;
      const attrs = row.attrs;
      for (const path in attrs) {
        const entry = paths.entry(path);
        writer.raw(entry.key);
        count++;
        const value = attrs[path] as string | number;
        let type: number;
        if (typeof value === 'string') {
          type = stringType;
          const slot = entry.stringSlot;
          if (slot >= 0) {
            strings[slot] = value;
            filledStrings.push(slot);
          } else {
            restStrings.push(entry);
            restStringValues.push(value);
          }
        } else {
          type = Number.isSafeInteger(value) ? int64Type : float64Type;
          const slot = entry.numberSlot;
          if (slot >= 0) {
            numbers[slot] = value;
            filledNumbers.push(slot);
          } else {
            restNumbers.push(entry);
            restNumberValues.push(value);
          }
        }
        entry.count(batch, touched, dayBase + type);
      }
      for (const path of row.nullPaths) {
        const entry = paths.entry(path);
        writer.raw(entry.key);
        count++;
        entry.count(batch, touched, dayBase + nullType);
      }
      writer.patchCount(pathCount, count);
      // rest_s and rest_n: Map(LowCardinality(String), Nullable(...)) as a count, then key and value pairs.
      writer.varUInt(restStrings.length);
      for (let i = 0; i < restStrings.length; i++) {
        writer.raw((restStrings[i] as PathEntry).key);
        writer.uint8(0);
        writer.string(restStringValues[i] as string);
      }
      writer.varUInt(restNumbers.length);
      for (let i = 0; i < restNumbers.length; i++) {
        writer.raw((restNumbers[i] as PathEntry).key);
        writer.presentFloat64(restNumberValues[i] as number);
      }
      restStrings.length = 0;
      restStringValues.length = 0;
      restNumbers.length = 0;
      restNumberValues.length = 0;
      // Slots are Nullable: a 1 byte for null, else a 0 byte and the value.
      for (let slot = 0; slot < stringSlotCount; slot++) {
        const value = strings[slot];
        if (value === undefined) writer.uint8(1);
        else {
          writer.uint8(0);
          writer.string(value);
        }
      }
      for (let slot = 0; slot < numberSlotCount; slot++) {
        const value = numbers[slot];
        if (value === undefined) writer.uint8(1);
        else writer.presentFloat64(value);
      }
      for (const slot of filledStrings) strings[slot] = undefined;
      for (const slot of filledNumbers) numbers[slot] = undefined;
      filledStrings.length = 0;
      filledNumbers.length = 0;
      chunks[2 * r] = head.head;
      chunks[2 * r + 1] = this.slabs.copy(writer.bytes()); // a copy: the writer is the next row's
    }
    return { chunks, catalog: catalogRows(inBatch.values()) };
  }

  private lineageIn(inBatch: Map<RowMap, BatchLineage>, map: RowMap): BatchLineage {
    let lineage = inBatch.get(map);
    if (lineage !== undefined) return lineage;
    const key = `${map.tenant}\u0000${map.indexId}\u0000${map.sourceType}`;
    let paths = this.lineages.get(key);
    if (paths === undefined) this.lineages.set(key, (paths = new LineagePaths()));
    paths.use(map);
    lineage = {
      map,
      paths,
      days: [],
      touched: [],
      dayStart: 0n,
      dayEnd: 0n,
      day: -1,
    };
    inBatch.set(map, lineage);
    return lineage;
  }
}

/** Moves a lineage's current day to the one holding `tsNs`. */
function enterDay(lineage: BatchLineage, tsNs: bigint): BatchLineage {
  const start = floorDiv(tsNs, dayNs) * dayNs;
  let day = lineage.days.indexOf(start);
  if (day === -1) day = lineage.days.push(start) - 1;
  lineage.day = day;
  lineage.dayStart = start;
  lineage.dayEnd = start + dayNs;
  return lineage;
}

function catalogRows(lineages: Iterable<BatchLineage>): CatalogRow[] {
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

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
