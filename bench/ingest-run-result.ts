import type { CpuProfileSummary } from './cpu-profile-summary.js';
import type { StorageFootprint } from './storage-footprint.js';

/** What one ingest path measured; the report and docs/benchmarks-journal.md are built from these. */
export interface IngestRunResult {
  readonly path: 'cli' | 'http';
  readonly ingested: number;
  readonly rejected: number;
  /** Decoded NDJSON bytes sent through the path. */
  readonly rawBytes: number;
  /** As a user sees it: CLI process start to exit, or first request to last response. */
  readonly wallSeconds: number;
  /** The CLI's own figure (engine open and audit flush excluded); null for HTTP. */
  readonly reportedSeconds: number | null;
  readonly peakRssBytes: number | null;
  readonly rssSource: string;
  /** CPU seconds of the vigil process (user + system). */
  readonly cpuSeconds: number | null;
  /** HTTP only: CPU seconds the bench client spent decompressing and sending. */
  readonly clientCpuSeconds: number | null;
  readonly storage: StorageFootprint | null;
  /** 1-minute load average before and after the run: the machine may be shared, so read figures against it. */
  readonly load?: { readonly before: number; readonly after: number };
  /** With --profile: where the vigil process's main thread spent its time. */
  readonly profile?: CpuProfileSummary;
  readonly notes: readonly string[];
}
