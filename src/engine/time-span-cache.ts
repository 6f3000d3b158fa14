/**
 * The written time spans of an engine that is the only writer of its store (chDB: the data dir
 * is locked to one process), kept in memory so a query does not pay a statement to read them.
 *
 * Inserts widen the cached span before they record the extent in the table, and a span read from
 * the table is joined with whatever was widened meanwhile, so the cache is never narrower than the
 * table: a read that raced an insert cannot store a span that misses it.
 */
import type { TimeExtent, TimeSpan } from './engine.js';

interface Entry {
  span: TimeSpan | null;
  /** False until the table's span was read into it; until then it holds only widenings. */
  complete: boolean;
}

export class TimeSpanCache {
  private static readonly byStore = new Map<string, TimeSpanCache>();

  /** The cache of one store (by its resolved path), shared by every engine of this process over it. */
  static of(store: string): TimeSpanCache {
    let cache = TimeSpanCache.byStore.get(store);
    if (cache === undefined) {
      cache = new TimeSpanCache();
      TimeSpanCache.byStore.set(store, cache);
    }
    return cache;
  }

  private readonly entries = new Map<string, Entry>();

  /** Records extents about to be written; call before they reach the table. */
  widen(extents: readonly TimeExtent[]): void {
    for (const extent of extents) {
      const key = keyOf(extent.tenant, extent.indexId);
      const entry = this.entries.get(key) ?? { span: null, complete: false };
      entry.span = union(entry.span, extent);
      this.entries.set(key, entry);
    }
  }

  /** The span of these indexes; reads the table (once per index) for those not yet known. */
  async span(tenant: string, indexIds: readonly string[], readTable: (indexIds: readonly string[]) => Promise<ReadonlyMap<string, TimeSpan>>): Promise<TimeSpan | null> {
    const unknown = indexIds.filter((id) => this.entries.get(keyOf(tenant, id))?.complete !== true);
    if (unknown.length > 0) {
      const read = await readTable(unknown);
      for (const id of unknown) {
        const key = keyOf(tenant, id);
        const entry = this.entries.get(key) ?? { span: null, complete: false };
        entry.span = union(entry.span, read.get(id) ?? null);
        entry.complete = true;
        this.entries.set(key, entry);
      }
    }
    let span: TimeSpan | null = null;
    for (const id of indexIds) span = union(span, this.entries.get(keyOf(tenant, id))?.span ?? null);
    return span;
  }

  /** Forgets an index whose events were all deleted (it takes no more writes). */
  forget(tenant: string, indexId: string): void {
    this.entries.delete(keyOf(tenant, indexId));
  }
}

function keyOf(tenant: string, indexId: string): string {
  return `${tenant}\u0000${indexId}`;
}

function union(a: TimeSpan | null, b: TimeSpan | null): TimeSpan | null {
  if (a === null) return b === null ? null : { minTsNs: b.minTsNs, maxTsNs: b.maxTsNs };
  if (b === null) return a;
  return { minTsNs: a.minTsNs < b.minTsNs ? a.minTsNs : b.minTsNs, maxTsNs: a.maxTsNs > b.maxTsNs ? a.maxTsNs : b.maxTsNs };
}
