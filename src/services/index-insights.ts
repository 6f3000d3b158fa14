import { catalogDaysExact, type Engine, type FieldInfo, type IndexStorageStats } from '../engine/index.js';
import type { IndexRecord } from '../store/index.js';

export interface IndexFields {
  /** The index's events over the days read (all of them for all time). */
  readonly events: number;
  /** The fields, most common first, then by path; types lower-case (`string`, `int64`, `float64`, `null`). */
  readonly fields: readonly FieldInfo[];
  /** The whole UTC days read, `[fromMs, toMs)`; null for all time. */
  readonly days: { readonly fromMs: number; readonly toMs: number } | null;
}

const dayMs = 86_400_000;

/** What an index holds, for the console's indexes page and field sidebar: its statistics and its fields. */
export class IndexInsights {
  constructor(private readonly engine: Engine) {}

  async stats(index: IndexRecord): Promise<IndexStorageStats> {
    const [stats] = await this.engine.indexStats(index.tenantId, [index.id]);
    return stats ?? { indexId: index.id, rows: 0, minTsNs: null, maxTsNs: null, eventsWithoutTime: 0, bytesOnDisk: 0 };
  }

  /**
   * The index's fields from the field catalog, over all time or over a range widened to whole
   * UTC days (the catalog's granularity), with the events of the same days, so that
   * `rows / events` is each field's share. A range the catalog cannot name by its days (before
   * 1970 or after 2149) reads all time.
   */
  async fields(index: IndexRecord, range: { readonly startNs: bigint; readonly endNs: bigint } | null): Promise<IndexFields> {
    const ids = [index.id];
    const fromMs = range === null ? null : Math.floor(Number(range.startNs / 1_000_000n) / dayMs) * dayMs;
    const toMs = range === null ? null : Math.ceil(Number((range.endNs + 999_999n) / 1_000_000n) / dayMs) * dayMs;
    const days = fromMs !== null && toMs !== null && catalogDaysExact(fromMs, toMs) ? { fromMs, toMs } : null;
    const [catalog, events] = await Promise.all([
      days === null ? this.engine.fieldCatalog(index.tenantId, ids) : this.engine.fieldCatalog(index.tenantId, ids, days.fromMs, days.toMs),
      days === null ? this.engine.eventCount(index.tenantId, ids) : this.engine.eventCount(index.tenantId, ids, BigInt(days.fromMs) * 1_000_000n, BigInt(days.toMs) * 1_000_000n),
    ]);
    const fields = catalog
      .map((field) => ({ path: field.path, types: field.types.map((t) => t.toLowerCase()).sort(), rows: field.rows }))
      .sort((a, b) => b.rows - a.rows || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { events, fields, days };
  }
}
