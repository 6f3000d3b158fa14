import { randomBytes } from 'node:crypto';
import { systemClock, type Clock, type StoredLayout } from '../core/index.js';
import type { EncodedEventRow } from './engine.js';
import { EventFieldsReader } from './encode-event-fields.js';
import { nullType, stringType, type CatalogRow, type RowMap } from './lineage-paths.js';
import { fieldLayoutOf, firstMapId, nextMapId, noSlots, promote, versionsOf, type FieldMapRow, type SlotMap } from './field-maps.js';
import { noSlot } from './schema.js';

/** Where the maps are stored (TableOperations). */
export interface FieldMapTable {
  read(tenant: string, indexIds: readonly string[]): Promise<FieldMapRow[]>;
  write(rows: readonly FieldMapRow[]): Promise<void>;
}

export interface FieldMapStoreOptions {
  /**
   * Every write to the store goes through this process (chDB, whose data dir is locked): it may
   * go on with a stored lineage, and its cache of the maps never goes stale. Otherwise (a server
   * that other replicas write too) each process starts lineages of its own, so two never write
   * the same map id, and re-reads the maps after `maxAgeMs`.
   */
  readonly exclusiveWriter: boolean;
  readonly maxAgeMs?: number;
  /** When the maps were read, for `maxAgeMs`; default the system clock. */
  readonly clock?: Clock;
}

/** One lineage as the store tracks it (opaque to callers). */
export interface Lineage {
  /** The map rows are written with: a new object for each version, so encoders see the change. */
  map: RowMap;
  /** False for a new lineage until its first version is written (with the first batch's promotions). */
  written: boolean;
  /** Events and per-path counts (as strings, as numbers) written with this lineage by this process: the promotion statistics. */
  events: number;
  readonly counts: { readonly strings: Map<string, number>; readonly numbers: Map<string, number> };
}

/** The maps of one batch's rows (one per row, the same object for rows of one lineage), and how many rows each lineage got. */
export interface BatchMaps {
  readonly maps: readonly RowMap[];
  readonly lineages: ReadonlyMap<Lineage, number>;
}

/**
 * The field maps of the indexes this process reads and writes: cached rows per index, and the
 * lineage each (tenant, index, source type) writes with. Batches take their maps and give back
 * their statistics one at a time, so two batches never make the same version.
 */
export class FieldMapStore {
  private readonly cached = new Map<string, { rows: FieldMapRow[]; readAtMs: number }>();
  /** Bumped whenever `cached` changes, so a memoized layout is used only while its rows stand. */
  private cachedVersion = 0;
  /** Layouts by tenant and index ids: building one from about 700 rows took a millisecond per search. */
  private readonly layouts = new Map<string, { version: number; layout: StoredLayout }>();
  private readonly lineages = new Map<string, Lineage>();
  private chain: Promise<unknown> = Promise.resolve();
  private readonly maxAgeMs: number;
  private readonly clock: Clock;

  constructor(
    private readonly table: FieldMapTable,
    private readonly options: FieldMapStoreOptions,
  ) {
    this.maxAgeMs = options.exclusiveWriter ? Number.POSITIVE_INFINITY : (options.maxAgeMs ?? 5_000);
    this.clock = options.clock ?? systemClock;
  }

  /** How queries over these indexes read each column. */
  async layout(tenant: string, indexIds: readonly string[]): Promise<StoredLayout> {
    const rows = await this.rowsOf(tenant, indexIds);
    const key = JSON.stringify([tenant, indexIds]);
    const memo = this.layouts.get(key);
    if (memo !== undefined && memo.version === this.cachedVersion) return memo.layout;
    const layout = fieldLayoutOf(rows);
    // One entry per set of indexes searched together; a bound, so odd sets cannot grow it forever.
    if (this.layouts.size >= 1000) this.layouts.clear();
    this.layouts.set(key, { version: this.cachedVersion, layout });
    return layout;
  }

  /**
   * The map each row is written with. A lineage new to the store gets its first version written
   * here, with the fields its first batch holds often enough already in slots.
   */
  mapsFor(rows: readonly EncodedEventRow[]): Promise<BatchMaps> {
    return this.serially(() => this.assignMaps(rows));
  }

  /**
   * Counts an encoded batch's fields (its catalog rows) into the statistics of its lineages, and
   * writes a new version of a lineage whose fields reached the promotion share: later batches
   * are written with it.
   */
  learn(batch: BatchMaps, catalog: readonly CatalogRow[]): Promise<void> {
    return this.serially(async () => {
      const byKey = new Map<string, Lineage>();
      for (const [lineage, rows] of batch.lineages) {
        lineage.events += rows;
        byKey.set(lineageKey(lineage.map.tenant, lineage.map.indexId, lineage.map.sourceType), lineage);
      }
      for (const row of catalog) {
        if (row.type === 'Null') continue;
        const lineage = byKey.get(lineageKey(row.tenant, row.indexId, row.sourceType));
        if (lineage === undefined) continue;
        const counts = row.type === 'String' ? lineage.counts.strings : lineage.counts.numbers;
        counts.set(row.path, (counts.get(row.path) ?? 0) + row.rows);
      }
      for (const lineage of byKey.values()) {
        const promoted = promote(lineage.map.slots, lineage.counts, lineage.events);
        const next = promoted === null ? null : nextMapId(lineage.map.mapId);
        if (promoted !== null && next !== null) await this.writeVersion(lineage, next, promoted);
      }
    });
  }

  /** Forgets an index (its events were deleted). */
  forget(tenant: string, indexId: string): void {
    this.cached.delete(indexKey(tenant, indexId));
    this.cachedVersion++;
    for (const key of [...this.lineages.keys()]) if (key.startsWith(`${indexKey(tenant, indexId)}\u0000`)) this.lineages.delete(key);
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.chain.then(work);
    this.chain = result.catch(() => undefined);
    return result;
  }

  private async assignMaps(rows: readonly EncodedEventRow[]): Promise<BatchMaps> {
    const maps = new Array<RowMap>(rows.length);
    const lineages = new Map<Lineage, number>();
    const unwritten = new Map<Lineage, EncodedEventRow[]>();
    let previous: EncodedEventRow['event'] | null = null;
    let lineage: Lineage | null = null;
    for (let i = 0; i < rows.length; i++) {
      const encoded = rows[i] as EncodedEventRow;
      const row = encoded.event;
      if (previous === null || row.tenant !== previous.tenant || row.indexId !== previous.indexId || row.sourceType !== previous.sourceType) {
        lineage = await this.lineageOf(row.tenant, row.indexId, row.sourceType);
      }
      previous = row;
      const current = lineage as Lineage;
      lineages.set(current, (lineages.get(current) ?? 0) + 1);
      if (!current.written) {
        const first = unwritten.get(current);
        if (first === undefined) unwritten.set(current, [encoded]);
        else first.push(encoded);
      }
    }
    // A new lineage's first version holds the fields its first batch has often enough.
    for (const [fresh, firstRows] of unwritten) {
      const counts = { strings: new Map<string, number>(), numbers: new Map<string, number>() };
      const reader = new EventFieldsReader();
      for (const row of firstRows) {
        reader.reset(row.fields);
        while (reader.next()) {
          const { id, type } = reader.field;
          if (type === nullType) continue;
          const path = row.paths.paths[id] ?? '';
          const kind = type === stringType ? counts.strings : counts.numbers;
          kind.set(path, (kind.get(path) ?? 0) + 1);
        }
      }
      await this.writeVersion(fresh, fresh.map.mapId, promote(fresh.map.slots, counts, firstRows.length) ?? fresh.map.slots);
    }
    // Maps are read after the writes: a version written above replaced its lineage's map.
    previous = null;
    for (let i = 0; i < rows.length; i++) {
      const row = (rows[i] as EncodedEventRow).event;
      if (previous === null || row.tenant !== previous.tenant || row.indexId !== previous.indexId || row.sourceType !== previous.sourceType) {
        lineage = this.lineages.get(lineageKey(row.tenant, row.indexId, row.sourceType)) as Lineage;
      }
      previous = row;
      maps[i] = (lineage as Lineage).map;
    }
    return { maps, lineages };
  }

  private async lineageOf(tenant: string, indexId: string, sourceType: string): Promise<Lineage> {
    const key = lineageKey(tenant, indexId, sourceType);
    const known = this.lineages.get(key);
    if (known !== undefined) return known;
    const stored = versionsOf(await this.rowsOf(tenant, [indexId])).filter((v) => v.sourceType === sourceType);
    const latest = stored.reduce<(typeof stored)[number] | null>((a, b) => (a === null || b.mapId > a.mapId ? b : a), null);
    const scope = { tenant, indexId, sourceType };
    const counts = { strings: new Map<string, number>(), numbers: new Map<string, number>() };
    let lineage: Lineage;
    if (latest !== null && this.options.exclusiveWriter && nextMapId(latest.mapId) !== null) {
      lineage = { map: { ...scope, mapId: latest.mapId, slots: latest.slots }, written: true, events: 0, counts };
    } else {
      // A lineage of our own, starting with the slots the latest one has, so fields keep them.
      // Written with the first batch, which may promote more.
      lineage = { map: { ...scope, mapId: firstMapId(newLineage()), slots: latest?.slots ?? noSlots }, written: false, events: 0, counts };
    }
    this.lineages.set(key, lineage);
    return lineage;
  }

  private async writeVersion(lineage: Lineage, mapId: bigint, slots: SlotMap): Promise<void> {
    const { tenant, indexId, sourceType } = lineage.map;
    const all = [...slots.strings, ...slots.numbers];
    // A version without slots still needs a row, so that readers know its lineage.
    const rows: FieldMapRow[] =
      all.length === 0 ? [{ tenant, indexId, sourceType, mapId, path: '', slot: noSlot }] : all.map(([path, slot]) => ({ tenant, indexId, sourceType, mapId, path, slot }));
    await this.table.write(rows);
    lineage.written = true;
    lineage.map = { tenant, indexId, sourceType, mapId, slots };
    const entry = this.cached.get(indexKey(tenant, indexId));
    if (entry !== undefined) entry.rows = [...entry.rows, ...rows];
    this.cachedVersion++;
  }

  private async rowsOf(tenant: string, indexIds: readonly string[]): Promise<FieldMapRow[]> {
    const now = this.clock.nowMs();
    const stale = [...new Set(indexIds)].filter((id) => {
      const entry = this.cached.get(indexKey(tenant, id));
      return entry === undefined || now - entry.readAtMs > this.maxAgeMs;
    });
    if (stale.length > 0) {
      const read = await this.table.read(tenant, stale);
      for (const id of stale) this.cached.set(indexKey(tenant, id), { rows: read.filter((row) => row.indexId === id), readAtMs: now });
      this.cachedVersion++;
    }
    return indexIds.flatMap((id) => this.cached.get(indexKey(tenant, id))?.rows ?? []);
  }
}

function indexKey(tenant: string, indexId: string): string {
  return `${tenant}\u0000${indexId}`;
}

function lineageKey(tenant: string, indexId: string, sourceType: string): string {
  return `${indexKey(tenant, indexId)}\u0000${sourceType}`;
}

/** A random lineage: 47 bits, never 0 (map 0 is the legacy layout). */
function newLineage(): bigint {
  const bytes = randomBytes(6);
  bytes[0] = (bytes[0] as number) & 0x7f;
  const value = BigInt(`0x${bytes.toString('hex')}`);
  return value === 0n ? 1n : value;
}
