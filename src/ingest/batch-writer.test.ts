import { describe, expect, it } from 'vitest';
import { EngineError, IngestError } from '../core/index.js';
import { BatchWriter, type BatchLimits } from './batch-writer.js';
import type { PendingRow } from './build-event-row.js';
import { memoryDeps } from './testing/memory-event-writer.js';

const scope = { tenant: 'acme', indexId: 'idx1', sourceType: 'aws:cloudtrail' };

function pending(n: number): PendingRow {
  return { tsNs: BigInt(n) * 1_000_000_000n, tsField: 'ts', rawJson: `{"n":${n}}`, attrs: { n }, nullPaths: [] };
}

function writerWith(limits: Partial<BatchLimits> = {}) {
  const deps = memoryDeps();
  const writer = new BatchWriter(deps, scope, { batchRows: 3, batchBytes: 1 << 30, ...limits });
  const rows = writer.rowEncoder(['ts'], deps.clock);
  /** Encodes a pending row as ingest does and adds it. */
  const add = (row: PendingRow): void => writer.add(rows.pending(row));
  return { deps, writer, add };
}

/** Adds rows the way ingest does: flushing whenever the batch is full. */
async function addAll({ writer, add }: { writer: BatchWriter; add: (row: PendingRow) => void }, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    add(pending(i));
    if (writer.full) await writer.flush();
  }
  await writer.flush();
  await writer.drain();
}

describe('BatchWriter', () => {
  it('cuts batches at batchRows', async () => {
    const w = writerWith();
    const { deps, writer, add } = w;
    await addAll(w, 7);
    expect(deps.writer.batches.map((b) => b.length)).toEqual([3, 3, 1]);
    expect(writer.ingested).toBe(7);
  });

  it('cuts batches at batchBytes of estimated encoded text', async () => {
    const w = writerWith({ batchRows: 1000, batchBytes: 400 });
    const { deps, writer, add } = w;
    await addAll(w, 5);
    // each row: 7 characters of raw text, the stand-in's 32 bytes of fields (`{"attrs":{"n":0},"nullPaths":[]}`)
    // and the per-row allowance of 160: 199 bytes, so a third row reaches 400
    expect(deps.writer.batches.map((b) => b.length)).toEqual([3, 2]);
  });

  it('reserves one run of sequence numbers per batch and assigns them in input order', async () => {
    const w = writerWith();
    const { deps, writer, add } = w;
    await addAll(w, 7);
    expect(deps.reservations).toEqual([3, 3, 1]);
    expect(deps.writer.rows.map((r) => r.seq)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(deps.writer.rows.map((r) => r.rawJson)).toEqual([0, 1, 2, 3, 4, 5, 6].map((n) => `{"n":${n}}`));
  });

  it('fills every row from the scope and the pending row', async () => {
    const w = writerWith();
    const { deps, writer, add } = w;
    add({ tsNs: -5n, tsField: '', rawJson: '{"a":null}', attrs: {}, nullPaths: ['a'] });
    await writer.flush();
    await writer.drain();
    expect(deps.writer.rows).toEqual([
      {
        tenant: 'acme',
        indexId: 'idx1',
        tsNs: '-5',
        seq: '1',
        sourceType: 'aws:cloudtrail',
        tsField: '',
        rawJson: '{"a":null}',
        attrs: {},
        nullPaths: ['a'],
        searchText: '',
      },
    ]);
  });

  it('keeps at most one insert in flight while the next batch is being built', async () => {
    const w = writerWith({ batchRows: 2 });
    const { deps, writer, add } = w;
    deps.writer.delayMs = 5;
    await addAll(w, 11);
    expect(deps.writer.maxInFlight).toBe(1);
    expect(writer.ingested).toBe(11);
  });

  it('returns from flush before the insert finishes, so parsing overlaps writing', async () => {
    const w = writerWith({ batchRows: 2 });
    const { deps, writer, add } = w;
    deps.writer.delayMs = 20;
    add(pending(1));
    await writer.flush();
    expect(deps.writer.inFlight).toBe(1);
    expect(writer.ingested).toBe(0);
    await writer.drain();
    expect(writer.ingested).toBe(1);
  });

  it('reports a failed insert at the next flush, wrapping unknown errors as EngineError', async () => {
    const w = writerWith({ batchRows: 2 });
    const { deps, writer, add } = w;
    deps.writer.failOnInsert = new Set([2]);
    const run = addAll(w, 7);
    await expect(run).rejects.toBeInstanceOf(EngineError);
    await expect(run).rejects.toThrow('inserting a batch of events');
    expect(writer.ingested).toBe(2);
    // no sequences reserved after the failure was seen
    expect(deps.reservations).toEqual([2, 2, 2]);
  });

  it('passes typed errors through unchanged', async () => {
    const w = writerWith();
    const { deps, writer, add } = w;
    const typed = new IngestError('engine says no');
    deps.engine.insertEvents = async () => {
      throw typed;
    };
    add(pending(1));
    await writer.flush();
    await expect(writer.drain()).rejects.toBe(typed);
  });

  it('settle waits for the insert in flight and swallows its failure', async () => {
    const w = writerWith();
    const { deps, writer, add } = w;
    deps.writer.failOnInsert = new Set([1]);
    add(pending(1));
    await writer.flush();
    await expect(writer.settle()).resolves.toBeUndefined();
    expect(deps.writer.inFlight).toBe(0);
  });

  it('does nothing on flush with no rows', async () => {
    const w = writerWith();
    const { deps, writer, add } = w;
    await writer.flush();
    await writer.drain();
    expect(deps.reservations).toEqual([]);
    expect(deps.writer.batches).toEqual([]);
  });
});
