import { ConflictError, NotFoundError, messageOf, type Clock } from '../core/index.js';
import type { Engine } from '../engine/index.js';
import { defaultSourceType, defaultTimestampFields, ingestStream, type IngestProgress, type IngestSummary } from '../ingest/index.js';
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
  readonly format?: 'auto' | 'ndjson';
  readonly maxBytes?: number;
  readonly onProgress?: (progress: IngestProgress) => void;
  readonly signal?: AbortSignal;
}

export interface IngestServiceSettings {
  readonly batchRows: number;
  readonly batchBytes: number;
}

/** Resolves the target index and runs one ingestion into it, recording it in the audit trail. */
export class IngestService {
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

  async ingest(request: IngestRequest, source: AsyncIterable<Buffer | Uint8Array | string>, actor: Actor): Promise<{ index: IndexRecord; summary: IngestSummary }> {
    checkTenantId(request.tenantId);
    if (request.sourceType !== undefined) checkSourceType(request.sourceType);
    const index = await this.targetIndex(request, actor);
    const timestampFields = [...(request.timestampField ? [request.timestampField] : []), ...(index.timestampFields ?? defaultTimestampFields)];
    // Events written before a failure stay: the audit trail records them too (see below).
    let written = 0;
    const onProgress = (progress: IngestProgress): void => {
      written = progress.ingested;
      request.onProgress?.(progress);
    };
    const summary = await this.writing(index.tenantId, () => ingestStream(
      source,
      {
        tenantId: index.tenantId,
        indexId: index.id,
        timestampFields: [...new Set(timestampFields)],
        sourceType: request.sourceType ?? index.sourceType ?? defaultSourceType,
      },
      {
        engine: this.engine,
        reserveSequence: (count) => this.store.tenants.reserveSequence(index.tenantId, count),
        clock: this.clock,
      },
      {
        format: request.format ?? 'auto',
        batchRows: this.settings.batchRows,
        batchBytes: this.settings.batchBytes,
        ...(request.maxBytes !== undefined ? { maxBytes: request.maxBytes } : {}),
        onProgress,
        ...(request.signal ? { signal: request.signal } : {}),
      },
    )).catch(async (error: unknown) => {
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
      bytes: summary.bytes,
      format: summary.format,
    });
    return { index, summary };
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
        { name: request.index, ...(request.timestampField ? { timestampFields: [request.timestampField, ...defaultTimestampFields] } : {}), ...(request.sourceType ? { sourceType: request.sourceType } : {}) },
        actor,
      );
    } catch (error) {
      // another ingest created it meanwhile (two first batches at once): write into that one
      if (!(error instanceof ConflictError)) throw error;
      return this.indexes.resolve(request.tenantId, request.index);
    }
  }
}
