import { ConflictError, KeyedLock, NotFoundError, ValidationError, messageOf, type Clock } from '../core/index.js';
import type { Engine } from '../engine/index.js';
import { defaultSourceType, defaultTimestampFields, ingestStream, type IngestFormat, type IngestProgress, type IngestSummary } from '../ingest/index.js';
import type { IndexRecord, Store } from '../store/index.js';
import type { Actor } from './actor.js';
import type { AuditTrail } from './audit-trail.js';
import { checkSourceType, type IndexService } from './index-service.js';
import { checkTenantId } from './names.js';

export interface IngestRequest {
  readonly tenantId: string;
  /** Index name or id. */
  readonly index: string;
  /** Create the index when it does not exist (CLI `--create-index`). */
  readonly createIndex?: boolean;
  readonly sourceType?: string;
  /** Tried before the index's own timestamp fields (and stored on an index this call creates). */
  readonly timestampField?: string;
  readonly format?: IngestFormat;
  readonly maxBytes?: number;
  /** How many line errors the summary keeps (default 100); all are counted. */
  readonly maxReportedErrors?: number;
  /**
   * Makes the ingestion safe to repeat (docs/ingest.md, "Ingest ids"): a repeat of one that
   * finished writes nothing and answers as it did; a repeat of one that stopped part-way first
   * deletes what it wrote. The caller names the same input with the same id.
   */
  readonly ingestId?: string;
  readonly onProgress?: (progress: IngestProgress) => void;
  readonly signal?: AbortSignal;
}

export interface IngestServiceSettings {
  readonly batchRows: number;
  readonly batchBytes: number;
}

/** What one ingestion did; `duplicate` when its ingest id was already done (nothing written now). */
export interface IngestOutcome {
  readonly index: IndexRecord;
  readonly summary: IngestSummary;
  readonly duplicate: boolean;
}

/** Resolves the target index and runs one ingestion into it, recording it in the audit trail. */
export class IngestService {
  /** One ingestion per ingest id at a time in this process (the engine has one writer process). */
  private readonly receiptLock = new KeyedLock();

  constructor(
    private readonly store: Store,
    private readonly engine: Engine,
    private readonly indexes: IndexService,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    private readonly settings: IngestServiceSettings,
    /**
     * Told the tenant before an ingestion writes its events; the returned function is called when
     * it ends, however it ends (caches of the tenant's fields go stale).
     */
    private readonly writingEvents: (tenantId: string) => () => void = () => () => {},
  ) {}

  async ingest(request: IngestRequest, source: AsyncIterable<Buffer | Uint8Array | string>, actor: Actor): Promise<IngestOutcome> {
    checkTenantId(request.tenantId);
    if (request.sourceType !== undefined) checkSourceType(request.sourceType);
    const index = await this.targetIndex(request, actor);
    const ingestId = request.ingestId;
    if (ingestId === undefined) {
      const reserveSequence = (count: number): Promise<bigint> => this.store.tenants.reserveSequence(index.tenantId, count);
      return { index, summary: await this.write(index, request, source, actor, reserveSequence), duplicate: false };
    }
    checkIngestId(ingestId);
    return this.receiptLock.run(`${index.tenantId}\u0000${index.id}\u0000${ingestId}`, () => this.writeOnce(index, ingestId, request, source, actor));
  }

  /** An ingestion with an ingest id: answered from its receipt when done, else (re)written under it. */
  private async writeOnce(index: IndexRecord, ingestId: string, request: IngestRequest, source: AsyncIterable<Buffer | Uint8Array | string>, actor: Actor): Promise<IngestOutcome> {
    const receipts = this.store.ingestReceipts;
    const receipt = await receipts.get(index.tenantId, index.id, ingestId);
    if (receipt?.state === 'done' && receipt.summary !== null) {
      await drain(source, request.maxBytes ?? Number.POSITIVE_INFINITY); // so the client is not left sending
      return { index, summary: summaryOf(receipt.summary), duplicate: true };
    }
    // A try that stopped part-way (a crash, a broken upload) left some batches: remove them first.
    if (receipt !== null) await this.engine.deleteEventsBySequence(index.tenantId, index.id, receipt.sequenceRanges);
    await receipts.begin(index.tenantId, index.id, ingestId, this.clock.nowMs());
    // Each batch's range is recorded before the batch is written, so a crash at any point leaves
    // a receipt naming every batch that may be in the engine.
    const reserveSequence = async (count: number): Promise<bigint> => {
      const first = await this.store.tenants.reserveSequence(index.tenantId, count);
      await receipts.addSequenceRange(index.tenantId, index.id, ingestId, { first, count }, this.clock.nowMs());
      return first;
    };
    const summary = await this.write(index, request, source, actor, reserveSequence);
    await receipts.finish(index.tenantId, index.id, ingestId, { ...summary }, this.clock.nowMs());
    return { index, summary, duplicate: false };
  }

  private async write(
    index: IndexRecord,
    request: IngestRequest,
    source: AsyncIterable<Buffer | Uint8Array | string>,
    actor: Actor,
    reserveSequence: (count: number) => Promise<bigint>,
  ): Promise<IngestSummary> {
    const timestampFields = [...(request.timestampField ? [request.timestampField] : []), ...(index.timestampFields ?? defaultTimestampFields)];
    // Events written before a failure stay: the audit trail records them too (see below).
    let written = 0;
    const onProgress = (progress: IngestProgress): void => {
      written = progress.ingested;
      request.onProgress?.(progress);
    };
    const summary = await this.writing(index.tenantId, () =>
      ingestStream(
        source,
        {
          tenantId: index.tenantId,
          indexId: index.id,
          timestampFields: [...new Set(timestampFields)],
          sourceType: request.sourceType ?? index.sourceType ?? defaultSourceType,
        },
        { engine: this.engine, reserveSequence, clock: this.clock },
        {
          format: request.format ?? 'auto',
          batchRows: this.settings.batchRows,
          batchBytes: this.settings.batchBytes,
          ...(request.maxBytes !== undefined ? { maxBytes: request.maxBytes } : {}),
          ...(request.maxReportedErrors !== undefined ? { maxReportedErrors: request.maxReportedErrors } : {}),
          onProgress,
          ...(request.signal ? { signal: request.signal } : {}),
        },
      ),
    ).catch(async (error: unknown) => {
      // A failed ingestion (a broken body, the engine, a cancel) may have written batches before
      // it stopped: that is a change to the index, and the audit trail says how many events.
      if (written > 0) {
        await this.audit.record(index.tenantId, actor, 'ingest', index.id, { index: index.name, ingested: written, failed: messageOf(error) });
      }
      throw error;
    });
    await this.audit.record(index.tenantId, actor, 'ingest', index.id, {
      index: index.name,
      ingested: summary.ingested,
      rejected: summary.rejected,
      without_time: summary.withoutTime,
      bytes: summary.bytes,
      format: summary.format,
      ...(request.ingestId !== undefined ? { ingest_id: request.ingestId } : {}),
    });
    return summary;
  }

  private async writing<T>(tenantId: string, write: () => Promise<T>): Promise<T> {
    const ended = this.writingEvents(tenantId);
    try {
      return await write();
    } finally {
      ended(); // a failed ingestion may have written some batches
    }
  }

  private async targetIndex(request: IngestRequest, actor: Actor): Promise<IndexRecord> {
    try {
      return await this.indexes.resolve(request.tenantId, request.index);
    } catch (error) {
      if (!(error instanceof NotFoundError) || !request.createIndex) throw error;
    }
    try {
      return await this.indexes.create(
        request.tenantId,
        {
          name: request.index,
          ...(request.timestampField ? { timestampFields: [request.timestampField, ...defaultTimestampFields] } : {}),
          ...(request.sourceType ? { sourceType: request.sourceType } : {}),
        },
        actor,
      );
    } catch (error) {
      // another ingest created it meanwhile (two first batches at once): write into that one
      if (!(error instanceof ConflictError)) throw error;
      return this.indexes.resolve(request.tenantId, request.index);
    }
  }
}

/** Ingest ids are chosen by clients: printable, short. */
function checkIngestId(ingestId: string): void {
  if (!/^[\x21-\x7e]{1,200}$/.test(ingestId)) {
    throw new ValidationError('ingest_id must be 1 to 200 printable ASCII characters without spaces', { field: 'ingest_id' });
  }
}

/** A done receipt's answer, as the summary it was made from. */
function summaryOf(stored: Readonly<Record<string, unknown>>): IngestSummary {
  const count = (key: string): number => (typeof stored[key] === 'number' ? (stored[key] as number) : 0);
  return {
    ingested: count('ingested'),
    rejected: count('rejected'),
    withoutTime: count('withoutTime'),
    errors: Array.isArray(stored['errors']) ? (stored['errors'] as IngestSummary['errors']) : [],
    bytes: count('bytes'),
    format: typeof stored['format'] === 'string' ? stored['format'] : 'ndjson',
    gzip: stored['gzip'] === true,
  };
}

/** Reads and discards the input of a repeat, up to the size limit. */
async function drain(source: AsyncIterable<Buffer | Uint8Array | string>, maxBytes: number): Promise<void> {
  let read = 0;
  for await (const chunk of source) {
    read += chunk.length;
    if (read > maxBytes) return;
  }
}
