/**
 * The field catalog planning reads for queries with column-name wildcards (20–35 ms on 5 M
 * events): reused for a short time, and forgotten as soon as this process writes the tenant's
 * events, so a field just ingested is never missing from `**` or a column wildcard.
 */
import type { Clock } from '../core/index.js';
import type { Engine } from '../engine/index.js';
import type { FieldPathSource } from './plan-query.js';

/** How long a tenant's index list and field catalog are reused by default. */
export const defaultCatalogTtlMs = 5000;

interface Entry<T> {
  readonly at: number;
  readonly value: Promise<T>;
}

// Caches at most this many keys; past it the cache starts over (cheap, and rare).
const maxEntries = 10_000;

export class FieldCatalogCache implements FieldPathSource {
  private readonly pathCache = new Map<string, Entry<readonly string[]>>();
  /** Bumped by `forget`; part of every key, so older entries are never read again. */
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly engine: Engine,
    private readonly clock: Clock,
    private readonly ttlMs: number = defaultCatalogTtlMs,
  ) {}

  /** Drops what is known of the tenant's fields: call after writing its events. */
  forget(tenant: string): void {
    if (this.generations.size >= maxEntries) {
      this.generations.clear();
      this.pathCache.clear();
    }
    this.generations.set(tenant, (this.generations.get(tenant) ?? 0) + 1);
  }

  /** Column paths seen in these indexes over the days of [fromMs, toMs). */
  fieldPaths(tenant: string, indexIds: readonly string[], fromMs: number, toMs: number): Promise<readonly string[]> {
    const day = (ms: number): number => Math.floor(ms / 86_400_000);
    const key = JSON.stringify([tenant, this.generations.get(tenant) ?? 0, indexIds, day(fromMs), day(toMs)]);
    return this.fresh(this.pathCache, key, async () => (await this.engine.fieldCatalog(tenant, indexIds, fromMs, toMs)).map((f) => f.path));
  }

  private fresh<T>(cache: Map<string, Entry<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const now = this.clock.nowMs();
    const hit = cache.get(key);
    if (hit !== undefined && now >= hit.at && now - hit.at < this.ttlMs) return hit.value;
    if (cache.size >= maxEntries) cache.clear();
    const value = load();
    cache.set(key, { at: now, value });
    value.catch(() => cache.delete(key)); // a failed read is not remembered
    return value;
  }
}
