import type { Clock } from '../core/index.js';
import type { Engine } from '../engine/index.js';

/** Where events go and how to read them. Plain values, so ingest does not depend on the store. */
export interface IngestTarget {
  readonly tenantId: string;
  readonly indexId: string;
  /** Fields tried for the event time, in order (the index's list, or the service defaults). */
  readonly timestampFields: readonly string[];
  /** `@svc.source_type` for these events. */
  readonly sourceType: string;
}

export interface IngestDependencies {
  readonly engine: Pick<Engine, 'eventEncoder' | 'insertEvents'>;
  /** Reserves `count` consecutive sequence numbers of the tenant; returns the first. */
  readonly reserveSequence: (count: number) => Promise<bigint>;
  readonly clock: Clock;
}

/** How input is read: detected, or every line as NDJSON or as plain text. */
export type IngestFormat = 'auto' | 'ndjson' | 'text';

export interface IngestOptions {
  /**
   * `auto` detects gzip, JSON array, CloudTrail Records, NDJSON or plain text; `ndjson` and `text`
   * read every line as that (a file sent in pieces names the format its first piece was read as).
   */
  readonly format?: IngestFormat;
  readonly batchRows?: number;
  readonly batchBytes?: number;
  /** Largest decoded input accepted; past it ingest stops with PayloadTooLargeError. */
  readonly maxBytes?: number;
  /** How many line errors the summary keeps (default 100); all are counted. */
  readonly maxReportedErrors?: number;
  readonly onProgress?: (progress: IngestProgress) => void;
  readonly signal?: AbortSignal;
}

export interface IngestProgress {
  /** Input bytes consumed (compressed bytes for gzip input). */
  readonly bytesRead: number;
  readonly ingested: number;
  readonly rejected: number;
}

export interface LineError {
  /** 1-based line of the input (for JSON documents: the element's 1-based position). */
  readonly line: number;
  readonly error: string;
}

export interface IngestSummary {
  readonly ingested: number;
  readonly rejected: number;
  /**
   * Events written with the ingest time because none of the timestamp fields gave a time (their
   * stored `ts_field` is empty); counted among `ingested`.
   */
  readonly withoutTime: number;
  /** The first `maxReportedErrors` problems, in input order. */
  readonly errors: LineError[];
  /** Decoded input bytes. */
  readonly bytes: number;
  /** Which reader was used: `ndjson`, `json-array`, `cloudtrail`, `json-document` or `text`. */
  readonly format: string;
  readonly gzip: boolean;
}

/** Fields tried for the event time when an index sets none (interface issue 2). */
export const defaultTimestampFields: readonly string[] = [
  '@timestamp',
  'timestamp',
  'eventTime',
  'time',
  'ts',
  'TimeGenerated',
  'published',
  'date',
  // Later additions, after the first eight so events timed before keep their time: the names the
  // public datasets in ../shared use (Windows event exports, NXLog, Defender, CSV exports, Panther,
  // Kubernetes audit, GSuite, GitHub audit).
  'TimeCreated',
  'EventTime',
  'Timestamp',
  'Event DateTime',
  'p_event_time',
  'requestReceivedTimestamp',
  'id.time',
  'created_at',
];

export const defaultSourceType = 'custom:generic';
