/**
 * Every change to an index is in the audit trail (interface 5, foundation issue): an ingestion
 * that fails after writing some batches (a broken upload, a cancel) has changed the index, so it
 * is recorded with the events it wrote and why it stopped; one that wrote nothing is not a change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/services/index.js';
import type { AuditEntry } from '../../src/store/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

let harness: ApiHarness;

beforeAll(async () => {
  // Batches of 10 rows, so a short upload writes some before it breaks.
  harness = await openApiHarness({ env: { VIGIL_INGEST_BATCH_ROWS: '10' } });
  await harness.runtime.services.tenants.ensure('acme');
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

/** An upload that sends `lines` events, then breaks. */
async function* breaksAfter(lines: number): AsyncGenerator<string> {
  for (let n = 0; n < lines; n++) yield `${JSON.stringify({ timestamp: '2026-11-21T10:00:00Z', n })}\n`;
  throw new Error('connection reset by peer');
}

async function ingestEntries(): Promise<AuditEntry[]> {
  return (await harness.runtime.services.store.audit.listUnshipped(1000)).filter((entry) => entry.tenantId === 'acme' && entry.action === 'ingest');
}

async function eventCount(index: string): Promise<number> {
  const indexRecord = await harness.runtime.services.indexes.resolve('acme', index);
  const result = await harness.engine.query<{ n: string }>(`SELECT count() AS n FROM logs WHERE tenant = 'acme' AND idx = '${indexRecord.id}'`);
  return Number(result.rows[0]?.n);
}

describe('an ingestion that fails', () => {
  it('after writing batches is audited with the events it wrote and why it stopped', async () => {
    const ingest = harness.runtime.services.ingest!;
    await expect(ingest.ingest({ tenantId: 'acme', index: 'broken', createIndex: true }, breaksAfter(25), cliActor)).rejects.toThrow('connection reset by peer');
    // Two whole batches were written; the five events of the third were not.
    expect(await eventCount('broken')).toBe(20);
    const entries = await ingestEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]?.details).toEqual({ index: 'broken', ingested: 20, failed: 'connection reset by peer' });
  });

  it('before writing anything is not a change, and leaves no entry', async () => {
    const ingest = harness.runtime.services.ingest!;
    const before = (await ingestEntries()).length;
    await expect(ingest.ingest({ tenantId: 'acme', index: 'broken', createIndex: true }, breaksAfter(5), cliActor)).rejects.toThrow('connection reset by peer');
    expect(await ingestEntries()).toHaveLength(before);
    expect(await eventCount('broken')).toBe(20);
  });
});
