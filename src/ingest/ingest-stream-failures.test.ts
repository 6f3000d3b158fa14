import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EngineError, IngestError, PayloadTooLargeError } from '../core/index.js';
import { ingestStream } from './ingest-stream.js';
import type { IngestProgress } from './ingest-types.js';
import { aTarget, byteStream, chunked } from './testing/ingest-fixtures.js';
import { memoryDeps } from './testing/memory-event-writer.js';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `{"n":${i}}`).join('\n') + '\n';

describe('ingestStream when things go wrong', () => {
  describe('the size cap (maxBytes, on decoded bytes)', () => {
    it('stops with PayloadTooLargeError; batches written before it stay written', async () => {
      const deps = memoryDeps();
      const run = ingestStream(byteStream(lines(1000), { size: 100 }), aTarget(), deps, { maxBytes: 5000, batchRows: 100 });
      const error = await run.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PayloadTooLargeError);
      expect(deps.writer.rows.length % 100).toBe(0);
      expect(deps.writer.rows.length).toBeGreaterThan(0);
      expect(deps.writer.rows.length).toBeLessThan(1000);
      // one event per line: the error says how many were written and where to resume
      const n = deps.writer.rows.length;
      expect((error as Error).message).toBe(`request body exceeds 5000 bytes; the ${n} events before the limit were ingested (input lines 1 to ${n}; resend from line ${n + 1})`);
    });

    it('counts decompressed bytes, so a small gzip bomb is stopped', async () => {
      const deps = memoryDeps();
      const bomb = gzipSync('{"a":1}\n'.repeat(200_000));
      expect(bomb.length).toBeLessThan(50_000);
      const run = ingestStream([bomb], aTarget(), deps, { maxBytes: 100_000 });
      await expect(run).rejects.toBeInstanceOf(PayloadTooLargeError);
    });

    it('caps a JSON document too, and writes none of it', async () => {
      const deps = memoryDeps();
      const doc = JSON.stringify(
        Array.from({ length: 500 }, (_, i) => ({ n: i })),
        null,
        1,
      );
      const run = ingestStream(byteStream(doc, { size: 100 }), aTarget(), deps, { maxBytes: 1000 });
      await expect(run).rejects.toThrow(new PayloadTooLargeError('request body exceeds 1000 bytes; no events were ingested before the limit'));
      expect(deps.writer.rows).toEqual([]);
    });
  });

  describe('a corrupt gzip stream', () => {
    it('keeps the complete lines before the damage, then fails naming the problem', async () => {
      const deps = memoryDeps();
      const compressed = gzipSync(lines(20_000));
      const truncated = compressed.subarray(0, Math.floor(compressed.length * 0.6));
      const run = ingestStream(chunked(truncated, 512), aTarget(), deps, { batchRows: 1000 });
      const error = await run.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IngestError);
      const written = deps.writer.rows.length;
      expect((error as Error).message).toMatch(
        new RegExp(`^gzip stream is corrupt after \\d+ decoded bytes: unexpected end of file; the ${written} events before the damage were ingested$`),
      );
      // every complete line that can be inflated from the truncated file is kept, in order
      const readable = gunzipSync(truncated, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
      const complete = readable.slice(0, readable.lastIndexOf('\n')).split('\n');
      expect(complete.length).toBeGreaterThan(1000);
      expect(deps.writer.rows.map((r) => r.rawJson)).toEqual(complete);
    });
  });

  describe('abort', () => {
    it('stops before reading when already aborted', async () => {
      const deps = memoryDeps();
      const controller = new AbortController();
      controller.abort();
      await expect(ingestStream(['{"a":1}'], aTarget(), deps, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
      expect(deps.writer.rows).toEqual([]);
    });

    it('stops between chunks with the signal reason; written batches stay', async () => {
      const deps = memoryDeps();
      const controller = new AbortController();
      async function* source(): AsyncGenerator<string> {
        for (let chunk = 0; chunk < 100; chunk++) {
          if (chunk === 30) controller.abort(new Error('client went away'));
          yield lines(10);
        }
      }
      await expect(ingestStream(source(), aTarget(), deps, { signal: controller.signal, batchRows: 50 })).rejects.toThrow('client went away');
      expect(deps.writer.rows.length).toBeGreaterThan(0);
      expect(deps.writer.rows.length).toBeLessThanOrEqual(300);
      expect(deps.writer.inFlight).toBe(0);
    });

    it('does not wait for a stalled source once aborted', async () => {
      const deps = memoryDeps();
      const controller = new AbortController();
      async function* stalled(): AsyncGenerator<string> {
        yield lines(3);
        await new Promise(() => {}); // a client that never sends more
      }
      setTimeout(() => controller.abort(), 20);
      await expect(ingestStream(stalled(), aTarget(), deps, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    });
  });

  describe('engine failures', () => {
    it('reject the ingest with an EngineError; earlier batches stay written', async () => {
      const deps = memoryDeps();
      deps.writer.failOnInsert = new Set([3]);
      const run = ingestStream(byteStream(lines(100), { size: 10 }), aTarget(), deps, { batchRows: 10 });
      await expect(run).rejects.toBeInstanceOf(EngineError);
      expect(deps.writer.rows.map((r) => r.rawJson)).toEqual(Array.from({ length: 20 }, (_, i) => `{"n":${i}}`));
      expect(deps.writer.inFlight).toBe(0);
    });
  });

  describe('progress', () => {
    it('reports at most every 250 ms of the clock, and once at the end with the totals', async () => {
      const deps = memoryDeps();
      const reports: IngestProgress[] = [];
      async function* source(): AsyncGenerator<string> {
        for (let chunk = 0; chunk < 10; chunk++) {
          deps.clock.advance(100); // progress reads only the injected clock
          yield lines(5);
        }
      }
      const summary = await ingestStream(source(), aTarget(), deps, { batchRows: 5, onProgress: (p) => reports.push(p) });
      expect(reports.length).toBeGreaterThanOrEqual(3);
      expect(reports.length).toBeLessThanOrEqual(6);
      expect(reports.at(-1)).toEqual({ bytesRead: summary.bytes, ingested: 50, rejected: 0 });
      for (let i = 1; i < reports.length; i++) expect(reports[i]!.ingested).toBeGreaterThanOrEqual(reports[i - 1]!.ingested);
    });

    it('reports once more when ingest fails, so callers show what was written', async () => {
      const deps = memoryDeps();
      const reports: IngestProgress[] = [];
      const run = ingestStream(byteStream(lines(100), { size: 50 }), aTarget(), deps, { maxBytes: 500, batchRows: 5, onProgress: (p) => reports.push(p) });
      await expect(run).rejects.toBeInstanceOf(PayloadTooLargeError);
      expect(reports.at(-1)?.ingested).toBe(deps.writer.rows.length);
    });

    it('counts compressed bytes as bytesRead for gzip input', async () => {
      const deps = memoryDeps();
      const compressed = gzipSync(lines(100));
      const reports: IngestProgress[] = [];
      await ingestStream([compressed], aTarget(), deps, { onProgress: (p) => reports.push(p) });
      expect(reports.at(-1)?.bytesRead).toBe(compressed.length);
    });
  });
});
