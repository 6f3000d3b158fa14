/** One engine batch of an ingestion: `count` sequence numbers from `first`. */
export interface ReceiptSequenceRange {
  readonly first: bigint;
  readonly count: number;
}

/**
 * What the store remembers of an ingestion sent with an ingest id (docs/ingest.md, "Ingest ids"):
 * while `writing`, the sequence ranges of every batch it may have written; once `done`, its
 * answer. A repeat of a done ingestion is answered from here; a repeat of one that stopped while
 * writing first deletes those batches.
 */
export interface IngestReceipt {
  readonly tenantId: string;
  readonly indexId: string;
  readonly ingestId: string;
  readonly state: 'writing' | 'done';
  readonly sequenceRanges: readonly ReceiptSequenceRange[];
  /** The ingestion's answer (a JSON object), once done. */
  readonly summary: Readonly<Record<string, unknown>> | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface IngestReceiptRepository {
  get(tenantId: string, indexId: string, ingestId: string): Promise<IngestReceipt | null>;
  /** Starts (or starts again) the ingestion: state `writing`, no ranges, no summary. */
  begin(tenantId: string, indexId: string, ingestId: string, atMs: number): Promise<void>;
  /** Records a batch's sequence range, durably, before the batch is written. */
  addSequenceRange(tenantId: string, indexId: string, ingestId: string, range: ReceiptSequenceRange, atMs: number): Promise<void>;
  /** Marks the ingestion done with its answer; its ranges are forgotten. */
  finish(tenantId: string, indexId: string, ingestId: string, summary: Readonly<Record<string, unknown>>, atMs: number): Promise<void>;
  /** Forgets every receipt of an index (once its events are purged). */
  deleteForIndex(tenantId: string, indexId: string): Promise<void>;
}
