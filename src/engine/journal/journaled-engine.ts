import type { StoredLayout } from '../../core/index.js';
import type {
  Engine,
  EngineQueryOptions,
  EngineQueryResult,
  EngineStorageStats,
  EventAnswer,
  EventBatch,
  EventEncoder,
  FieldInfo,
  IndexStorageStats,
  RunningQuery,
  SequenceRange,
  TenantIndex,
  TimeSpan,
} from '../engine.js';
import type { FieldPathIds } from '../encode-event-fields.js';
import type { IngestJournal } from './ingest-journal.js';

/**
 * An engine whose small batches are acknowledged from the ingest journal (ingest-journal.ts) and
 * written to `inner` in groups. Every read, delete and maintenance call first has the events
 * acknowledged before it written, so callers see their own writes as before; a delete also
 * waits until they are (a record written after it would bring back what it deleted). For an
 * engine that is the only writer of its store (the embedded one): another process reading the
 * store directly would see events only once written, up to two seconds later.
 */
export class JournaledEngine implements Engine {
  constructor(
    private readonly inner: Engine,
    private readonly journal: IngestJournal,
  ) {}

  /** The inner engine's schema, then the records an earlier run left in the journal. */
  async init(): Promise<void> {
    await this.inner.init();
    await this.journal.replay((batch) => this.writeAgain(batch));
  }

  /**
   * A record may have been written before the run stopped, and its segment not yet removed: its
   * events are deleted by sequence first (no mutation when none is stored), so none is doubled.
   * Its catalog counts may be, which leaves the catalog a superset, as it may always be.
   */
  private async writeAgain(batch: EventBatch): Promise<void> {
    for (const [key, ranges] of sequenceRangesOf(batch)) {
      const [tenant, indexId] = key.split('\u0000') as [string, string];
      await this.inner.deleteEventsBySequence(tenant, indexId, ranges);
    }
    await this.inner.insertEvents(batch);
  }

  eventEncoder(paths: FieldPathIds): EventEncoder {
    return this.inner.eventEncoder(paths);
  }

  async insertEvents(batch: EventBatch): Promise<{ rows: number }> {
    if (batch.rows.length === 0) return { rows: 0 };
    let bytes = 0;
    for (const row of batch.rows) bytes += row.head.length + row.fields.length;
    // A batch that fills a group alone (the CLI's) is one part already.
    if (this.journal.fillsGroup(batch.rows.length, bytes)) return this.inner.insertEvents(batch);
    await this.journal.append(batch, bytes);
    return { rows: batch.rows.length };
  }

  async writtenTimeSpan(tenant: string, indexIds: readonly string[]): Promise<TimeSpan | null> {
    await this.journal.written();
    return this.inner.writtenTimeSpan(tenant, indexIds);
  }

  async query<Row = Record<string, unknown>>(sql: string, options?: EngineQueryOptions): Promise<EngineQueryResult<Row>> {
    await this.journal.written();
    return this.inner.query<Row>(sql, options);
  }

  async queryEvents<Row = Record<string, unknown>>(sql: string, answer: EventAnswer, options?: EngineQueryOptions): Promise<EngineQueryResult<Row>> {
    await this.journal.written();
    return this.inner.queryEvents<Row>(sql, answer, options);
  }

  async *stream<Row = Record<string, unknown>>(sql: string, options?: EngineQueryOptions): AsyncIterable<Row[]> {
    await this.journal.written();
    yield* this.inner.stream<Row>(sql, options);
  }

  async exec(sql: string, options?: EngineQueryOptions): Promise<void> {
    await this.journal.written();
    return this.inner.exec(sql, options);
  }

  runningQuery(tag: string): Promise<RunningQuery | null> {
    return this.inner.runningQuery(tag);
  }

  cancel(tag: string): Promise<void> {
    return this.inner.cancel(tag);
  }

  async fieldLayout(tenant: string, indexIds: readonly string[]): Promise<StoredLayout> {
    // Written batches may have promoted fields to typed slots.
    await this.journal.written();
    return this.inner.fieldLayout(tenant, indexIds);
  }

  async fieldCatalog(tenant: string, indexIds: readonly string[], fromMs?: number, toMs?: number): Promise<FieldInfo[]> {
    await this.journal.written();
    return this.inner.fieldCatalog(tenant, indexIds, fromMs, toMs);
  }

  async indexStats(tenant: string, indexIds: readonly string[]): Promise<IndexStorageStats[]> {
    await this.journal.written();
    return this.inner.indexStats(tenant, indexIds);
  }

  async eventCount(tenant: string, indexIds: readonly string[], fromNs?: bigint, toNs?: bigint): Promise<number> {
    await this.journal.written();
    return this.inner.eventCount(tenant, indexIds, fromNs, toNs);
  }

  async deleteIndexEvents(tenant: string, indexId: string): Promise<void> {
    await this.journal.written({ strict: true });
    return this.inner.deleteIndexEvents(tenant, indexId);
  }

  async indexesWithEvents(tenantPrefix: string): Promise<TenantIndex[]> {
    await this.journal.written();
    return this.inner.indexesWithEvents(tenantPrefix);
  }

  async deleteEventsBySequence(tenant: string, indexId: string, ranges: readonly SequenceRange[]): Promise<void> {
    await this.journal.written({ strict: true });
    return this.inner.deleteEventsBySequence(tenant, indexId, ranges);
  }

  async deleteEventsBefore(tenant: string, indexId: string, cutoffNs: bigint): Promise<void> {
    await this.journal.written({ strict: true });
    return this.inner.deleteEventsBefore(tenant, indexId, cutoffNs);
  }

  writeLookupRows(tenant: string, tableId: string, version: string, rows: readonly (readonly string[])[]): Promise<void> {
    return this.inner.writeLookupRows(tenant, tableId, version, rows);
  }

  deleteLookupRows(tenant: string, tableId: string, keep?: string): Promise<void> {
    return this.inner.deleteLookupRows(tenant, tableId, keep);
  }

  async storageStats(): Promise<EngineStorageStats> {
    await this.journal.written();
    return this.inner.storageStats();
  }

  async optimize(): Promise<void> {
    await this.journal.written();
    return this.inner.optimize();
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  /** Writes what the journal holds (what it cannot stays for the next start), then closes the engine. */
  async close(): Promise<void> {
    await this.journal.close();
    await this.inner.close();
  }
}

/** The sequence numbers of a batch's rows per tenant and index (keyed `tenant\0index`), as runs of consecutive numbers. */
export function sequenceRangesOf(batch: EventBatch): Map<string, SequenceRange[]> {
  const seqs = new Map<string, bigint[]>();
  for (const { event } of batch.rows) {
    const key = `${event.tenant}\u0000${event.indexId}`;
    const list = seqs.get(key);
    if (list === undefined) seqs.set(key, [event.seq]);
    else list.push(event.seq);
  }
  const ranges = new Map<string, SequenceRange[]>();
  for (const [key, list] of seqs) {
    list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const runs: SequenceRange[] = [];
    let first = list[0] as bigint;
    let count = 1;
    for (let i = 1; i < list.length; i++) {
      const seq = list[i] as bigint;
      if (seq === first + BigInt(count)) count++;
      else if (seq !== first + BigInt(count - 1)) {
        runs.push({ first, count });
        first = seq;
        count = 1;
      }
    }
    runs.push({ first, count });
    ranges.set(key, runs);
  }
  return ranges;
}
