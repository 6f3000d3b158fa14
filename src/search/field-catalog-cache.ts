/**
 * The field catalog planning reads (20–35 ms on 5 M events): for column-name wildcards its paths,
 * for aggregations also their types. Reused for a short time, and forgotten as soon as this
 * process writes the tenant's events, so a field just ingested is never missing from `**` or a
 * column wildcard.
 *
 * Types are given only when the catalog lists every (path, type) the range holds: an aggregation
 * then reads only those JSON variants, and one the catalog missed would read as null. In the
 * embedded mode every write goes through this process: while one of the tenant's writes is in
 * flight (`writing`), or when it began or ended during the read, no types are given. What stays
 * open is a write that begins after planning and commits before the statement starts reading
 * (milliseconds, or a wait for a free engine session). With several processes writing
 * (scale-out), another replica's writes are not seen here: an aggregation may miss a new path or
 * type for up to the reuse time (5 s). Rule windows never use types (plan-query.ts).
 */
import type { Clock, StoredLayout } from '../core/index.js';
import { catalogDaysExact, type Engine, type FieldInfo } from '../engine/index.js';
import type { FieldTypes } from '../query/index.js';
import type { CatalogFields, FieldCatalogSource } from './plan-query.js';

/** How long a tenant's index list and field catalog are reused by default. */
export const defaultCatalogTtlMs = 5000;

/** One catalog read: every path, and the types of each. */
interface Catalog {
  readonly paths: readonly string[];
  readonly types: FieldTypes;
}

interface Entry {
  readonly at: number;
  readonly value: Promise<Catalog>;
}

// Caches at most this many keys; past it the cache starts over (cheap, and rare).
const maxEntries = 10_000;

const dayMs = 86_400_000;

export class FieldCatalogCache implements FieldCatalogSource {
  private readonly cache = new Map<string, Entry>();
  /** Bumped by `forget`; part of every key, so older entries are never read again. */
  private readonly generations = new Map<string, number>();
  /** Writes of each tenant's events in flight in this process. */
  private readonly writes = new Map<string, number>();

  constructor(
    private readonly engine: Engine,
    private readonly clock: Clock,
    private readonly ttlMs: number = defaultCatalogTtlMs,
  ) {}

  /** Drops what is known of the tenant's fields: call after writing its events. */
  forget(tenant: string): void {
    if (this.generations.size >= maxEntries) {
      this.generations.clear();
      this.cache.clear();
    }
    this.generations.set(tenant, (this.generations.get(tenant) ?? 0) + 1);
  }

  /**
   * Marks the start of a write of the tenant's events; call the returned function when it ends,
   * however it ends. Until then no types are given for the tenant, and at the end its fields are
   * forgotten.
   */
  writing(tenant: string): () => void {
    this.forget(tenant);
    this.writes.set(tenant, (this.writes.get(tenant) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.writes.get(tenant) ?? 1) - 1;
      if (left > 0) this.writes.set(tenant, left);
      else this.writes.delete(tenant);
      this.forget(tenant);
    };
  }

  typesUsable(tenant: string, fromMs: number, toMs: number): boolean {
    return !this.writes.has(tenant) && catalogDaysExact(fromMs, toMs);
  }

  /** Where the engine stores the columns of these indexes (its field maps, which it caches itself). */
  storedLayout(tenant: string, indexIds: readonly string[]): Promise<StoredLayout> {
    return this.engine.fieldLayout(tenant, indexIds);
  }

  /** Column paths seen in these indexes over the days of [fromMs, toMs), with their types when trusted. */
  async fields(tenant: string, indexIds: readonly string[], fromMs: number, toMs: number): Promise<CatalogFields> {
    const generation = this.generations.get(tenant) ?? 0;
    // The days the engine reads: toMs is exclusive, so its last day is that of toMs - 1 ms.
    const key = JSON.stringify([tenant, generation, indexIds, Math.floor(fromMs / dayMs), Math.floor((toMs - 1) / dayMs)]);
    const fields = await this.fresh(key, async () => catalogFields(await this.engine.fieldCatalog(tenant, indexIds, fromMs, toMs)));
    const settled = (this.generations.get(tenant) ?? 0) === generation;
    return settled && this.typesUsable(tenant, fromMs, toMs) ? fields : { paths: fields.paths, types: null };
  }

  private fresh(key: string, load: () => Promise<Catalog>): Promise<Catalog> {
    const now = this.clock.nowMs();
    const hit = this.cache.get(key);
    if (hit !== undefined && now >= hit.at && now - hit.at < this.ttlMs) return hit.value;
    if (this.cache.size >= maxEntries) this.cache.clear();
    const value = load();
    this.cache.set(key, { at: now, value });
    value.catch(() => this.cache.delete(key)); // a failed read is not remembered
    return value;
  }
}

function catalogFields(catalog: readonly FieldInfo[]): Catalog {
  return { paths: catalog.map((field) => field.path), types: new Map(catalog.map((field) => [field.path, field.types])) };
}
