import { describe, expect, it } from 'vitest';
import type { Store } from '../store.js';

/** Ingest receipts: an ingestion's batches while it writes, its answer once done. */
export function describeIngestReceiptContract(store: () => Store): void {
  describe('ingest receipts', () => {
    it('get answers null for an ingest id never begun', async () => {
      expect(await store().ingestReceipts.get('acme', 'idx-1', 'file:1-100')).toBeNull();
    });

    it('records each batch range while writing, then the answer once done', async () => {
      const receipts = store().ingestReceipts;
      await receipts.begin('acme', 'idx-1', 'a', 1000);
      await receipts.addSequenceRange('acme', 'idx-1', 'a', { first: 2n ** 60n, count: 500 }, 1001);
      await receipts.addSequenceRange('acme', 'idx-1', 'a', { first: 7n, count: 1 }, 1002);
      expect(await receipts.get('acme', 'idx-1', 'a')).toEqual({
        tenantId: 'acme',
        indexId: 'idx-1',
        ingestId: 'a',
        state: 'writing',
        sequenceRanges: [
          { first: 2n ** 60n, count: 500 },
          { first: 7n, count: 1 },
        ],
        summary: null,
        createdAt: 1000,
        updatedAt: 1002,
      });
      await receipts.finish('acme', 'idx-1', 'a', { ingested: 501, rejected: 0 }, 1003);
      expect(await receipts.get('acme', 'idx-1', 'a')).toMatchObject({
        state: 'done',
        sequenceRanges: [],
        summary: { ingested: 501, rejected: 0 },
        createdAt: 1000,
        updatedAt: 1003,
      });
    });

    it('begin again starts over: no ranges, no answer', async () => {
      const receipts = store().ingestReceipts;
      await receipts.begin('acme', 'idx-1', 'a', 1000);
      await receipts.addSequenceRange('acme', 'idx-1', 'a', { first: 1n, count: 10 }, 1001);
      await receipts.begin('acme', 'idx-1', 'a', 2000);
      expect(await receipts.get('acme', 'idx-1', 'a')).toMatchObject({ state: 'writing', sequenceRanges: [], summary: null, createdAt: 1000, updatedAt: 2000 });
    });

    it('keeps receipts of tenants and indexes apart, and deletes those of one index', async () => {
      const receipts = store().ingestReceipts;
      await receipts.begin('acme', 'idx-1', 'same', 1);
      await receipts.begin('acme', 'idx-2', 'same', 1);
      await receipts.begin('globex', 'idx-1', 'same', 1);
      await receipts.finish('acme', 'idx-2', 'same', { ingested: 3 }, 2);
      expect((await receipts.get('acme', 'idx-1', 'same'))?.state).toBe('writing');
      expect((await receipts.get('globex', 'idx-1', 'same'))?.state).toBe('writing');
      await receipts.deleteForIndex('acme', 'idx-1');
      expect(await receipts.get('acme', 'idx-1', 'same')).toBeNull();
      expect(await receipts.get('acme', 'idx-2', 'same')).not.toBeNull();
      expect(await receipts.get('globex', 'idx-1', 'same')).not.toBeNull();
    });

    it('refuses to record a batch of an ingestion never begun', async () => {
      await expect(store().ingestReceipts.addSequenceRange('acme', 'idx-1', 'nope', { first: 1n, count: 1 }, 1)).rejects.toThrow(/no ingest receipt/);
    });
  });
}
