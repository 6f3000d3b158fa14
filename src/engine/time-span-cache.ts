/**
 * The written time spans of an engine that is the only writer of its store (chDB: the data dir
 * is locked to one process), kept in memory so a query does not pay a statement to read them.
 *
 * Inserts widen the cached span before they record the extent in the table, and a span read from
 * the table is joined with whatever was widened meanwhile, so the cache is never narrower than the
 * table: a read that raced an insert cannot store a span that misses it.
 *
 * Retention narrows it in memory only (`narrowAfter`): the table keeps the spans inserts gave, so
 * after a restart the span is as wide as written until retention runs again.
 *
 * It also knows what the table holds already (the extents written or read there), so an insert
 * writes extent rows in whole minutes and leaves out those that would widen nothing: for a small
 * batch that statement costs about as much as its catalog rows (docs/engine.md, "Time extents").
 */
import type { TimeExtent, TimeSpan } from './engine.js';
import { joinSpans, toWholeMinutes } from './time-extents.js';

interface Entry {
  span: TimeSpan | null;
  /** False until the table's span was read into it; until then it holds only widenings. */
  complete: boolean;
  /** Deletes under way (`narrowAfter`), each with the lowest time widened since it began. */
  deletes: { lowestWidened: bigint | null }[];
  /** A span the table is known to hold (only deleting the index narrows the table's). */
  inTable: TimeSpan | null;
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
      const entry = this.entries.get(key) ?? emptyEntry();
      entry.span = joinSpans(entry.span, extent);
      for (const pending of entry.deletes) {
        if (pending.lowestWidened === null || extent.minTsNs < pending.lowestWidened) pending.lowestWidened = extent.minTsNs;
      }
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
        const entry = this.entries.get(key) ?? emptyEntry();
        entry.span = joinSpans(entry.span, read.get(id) ?? null);
        entry.inTable = joinSpans(entry.inTable, read.get(id) ?? null);
        entry.complete = true;
        this.entries.set(key, entry);
      }
    }
    let span: TimeSpan | null = null;
    for (const id of indexIds) span = joinSpans(span, this.entries.get(keyOf(tenant, id))?.span ?? null);
    return span;
  }

  /**
   * The extent rows an insert of these extents writes: none for an extent inside what the table
   * holds, and each other widened to whole minutes, so that the batches that follow within the
   * same minutes need none (live logs arrive with ever later times, and would widen every time).
   * So the table's span may be up to a minute wider than the events at each end, as spans may
   * be; a span read from the table is as wide, until later events widen it.
   */
  rowsToWrite(extents: readonly TimeExtent[]): TimeExtent[] {
    return extents
      .filter((extent) => {
        const inTable = this.entries.get(keyOf(extent.tenant, extent.indexId))?.inTable ?? null;
        return inTable === null || extent.minTsNs < inTable.minTsNs || extent.maxTsNs > inTable.maxTsNs;
      })
      .map(toWholeMinutes);
  }

  /** Notes extent rows the table holds now (their insert succeeded). */
  recorded(rows: readonly TimeExtent[]): void {
    for (const row of rows) {
      const entry = this.entries.get(keyOf(row.tenant, row.indexId));
      // `widen` made the entry before the insert; none left means the index was deleted meanwhile.
      if (entry !== undefined) entry.inTable = joinSpans(entry.inTable, row);
    }
  }

  /**
   * Runs `deleteBefore`, which deletes the index's events older than `cutoffNs`, then raises the
   * span's start to the cutoff: no event before it is left but those inserted meanwhile, whose
   * extents were widened while it ran and are kept. The span must be known (read) before.
   */
  async narrowAfter(tenant: string, indexId: string, cutoffNs: bigint, deleteBefore: () => Promise<void>): Promise<void> {
    const entry = this.entries.get(keyOf(tenant, indexId));
    if (entry === undefined || !entry.complete) {
      await deleteBefore();
      return;
    }
    const pending = { lowestWidened: null as bigint | null };
    entry.deletes.push(pending);
    try {
      await deleteBefore();
    } finally {
      entry.deletes.splice(entry.deletes.indexOf(pending), 1);
    }
    const span = entry.span;
    if (span === null || span.minTsNs >= cutoffNs) return;
    let minTsNs = cutoffNs;
    if (pending.lowestWidened !== null && pending.lowestWidened < minTsNs) minTsNs = pending.lowestWidened;
    // Every event was older than the cutoff, and none came meanwhile: nothing is left.
    entry.span = minTsNs > span.maxTsNs ? null : { minTsNs, maxTsNs: span.maxTsNs };
  }

  /** Forgets an index whose events were all deleted (it takes no more writes). */
  forget(tenant: string, indexId: string): void {
    this.entries.delete(keyOf(tenant, indexId));
  }
}

function emptyEntry(): Entry {
  return { span: null, complete: false, deletes: [], inTable: null };
}

function keyOf(tenant: string, indexId: string): string {
  return `${tenant}\u0000${indexId}`;
}
