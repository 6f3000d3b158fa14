import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Clock } from '../../core/index.js';
import { ingestStream } from '../ingest-stream.js';
import type { IngestDependencies, IngestSummary, IngestTarget } from '../ingest-types.js';
import { defaultTimestampFields } from '../ingest-types.js';

/**
 * The shared sample datasets (see their README.md): beside the repository on CI and on
 * developer machines, at ../shared/datasets from the repository root. Null when absent, so
 * tests that read them can skip with a clear reason.
 */
export const sampleDatasetsDir: string | null = (() => {
  const dir = fileURLToPath(new URL('../../../../shared/datasets/', import.meta.url));
  return existsSync(dir) ? dir : null;
})();

/** Why dataset tests are skipped, for the test title. */
export const datasetsSkipReason = sampleDatasetsDir === null ? ' (skipped: ../shared/datasets not found)' : '';

/** Reserves consecutive sequence numbers from 1, as the store does for one tenant. */
export function sequenceCounter(): (count: number) => Promise<bigint> {
  let next = 1n;
  return async (count) => {
    const first = next;
    next += BigInt(count);
    return first;
  };
}

/** A target with the service's default timestamp fields. */
export function aTarget(overrides: Partial<IngestTarget> = {}): IngestTarget {
  return { tenantId: 'acme', indexId: 'idx_test', timestampFields: defaultTimestampFields, sourceType: 'custom:generic', ...overrides };
}

/** Text as a byte stream cut into pieces of `size` bytes (gzipped first when asked). */
export async function* byteStream(text: string, options: { size?: number; gzip?: boolean } = {}): AsyncGenerator<Uint8Array> {
  const bytes = options.gzip ? gzipSync(text) : Buffer.from(text);
  const size = options.size ?? 64 * 1024;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Bytes cut into pieces of `size`. */
export function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

/** Bytes cut at the given offsets (sorted, deduplicated, clamped). */
export function cutBytes(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => Math.min(o, bytes.length)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(from, p));
    from = p;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

/**
 * Writes events (objects with their time in `ts`) into one index of tenant `acme` as NDJSON
 * through ingest, with sequence numbers from a counter of its own: what engine-backed tests of
 * search load their data with.
 */
export function eventWriter(engine: IngestDependencies['engine'], clock: Clock): (indexId: string, events: readonly Record<string, unknown>[]) => Promise<IngestSummary> {
  let sequence = 0n;
  const reserveSequence = async (count: number): Promise<bigint> => {
    const first = sequence + 1n;
    sequence += BigInt(count);
    return first;
  };
  return (indexId, events) =>
    ingestStream(
      [events.map((event) => JSON.stringify(event)).join('\n')],
      { tenantId: 'acme', indexId, timestampFields: ['ts'], sourceType: 'test' },
      { engine, reserveSequence, clock },
      { format: 'ndjson' },
    );
}
