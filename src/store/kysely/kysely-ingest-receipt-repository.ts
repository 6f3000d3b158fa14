import type { Kysely, Selectable } from 'kysely';
import { StoreError } from '../../core/index.js';
import type { IngestReceipt, IngestReceiptRepository, ReceiptSequenceRange } from '../ingest-receipt-store.js';
import type { IngestReceiptsTable, StoreDatabase } from '../store-database.js';
import { millisOf, objectOf } from './column-codecs.js';
import type { StoreQueryRunner } from './store-query-runner.js';

/** Ingest receipts over Kysely, for every dialect. */
export class KyselyIngestReceiptRepository implements IngestReceiptRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  get(tenantId: string, indexId: string, ingestId: string): Promise<IngestReceipt | null> {
    return this.runner.run('reading ingest receipt', async () => {
      const row = await this.db
        .selectFrom('ingest_receipts')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('index_id', '=', indexId)
        .where('ingest_id', '=', ingestId)
        .executeTakeFirst();
      return row === undefined ? null : toReceipt(row);
    });
  }

  begin(tenantId: string, indexId: string, ingestId: string, atMs: number): Promise<void> {
    return this.runner.run('starting ingest receipt', async () => {
      await this.db
        .insertInto('ingest_receipts')
        .values({ tenant_id: tenantId, index_id: indexId, ingest_id: ingestId, state: 'writing', sequence_ranges: '[]', summary: null, created_at: atMs, updated_at: atMs })
        .onConflict((oc) => oc.columns(['tenant_id', 'index_id', 'ingest_id']).doUpdateSet({ state: 'writing', sequence_ranges: '[]', summary: null, updated_at: atMs }))
        .execute();
    });
  }

  addSequenceRange(tenantId: string, indexId: string, ingestId: string, range: ReceiptSequenceRange, atMs: number): Promise<void> {
    return this.runner.run('recording ingest batch', () =>
      this.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('ingest_receipts')
          .select('sequence_ranges')
          .where('tenant_id', '=', tenantId)
          .where('index_id', '=', indexId)
          .where('ingest_id', '=', ingestId)
          .executeTakeFirst();
        if (row === undefined) throw new StoreError(`no ingest receipt ${JSON.stringify(ingestId)} to record a batch in`);
        const ranges = [...rangesOf(row.sequence_ranges), range];
        await trx
          .updateTable('ingest_receipts')
          .set({ sequence_ranges: JSON.stringify(ranges.map((r) => [r.first.toString(), r.count])), updated_at: atMs })
          .where('tenant_id', '=', tenantId)
          .where('index_id', '=', indexId)
          .where('ingest_id', '=', ingestId)
          .execute();
      }),
    );
  }

  finish(tenantId: string, indexId: string, ingestId: string, summary: Readonly<Record<string, unknown>>, atMs: number): Promise<void> {
    return this.runner.run('finishing ingest receipt', async () => {
      await this.db
        .updateTable('ingest_receipts')
        .set({ state: 'done', sequence_ranges: '[]', summary: JSON.stringify(summary), updated_at: atMs })
        .where('tenant_id', '=', tenantId)
        .where('index_id', '=', indexId)
        .where('ingest_id', '=', ingestId)
        .execute();
    });
  }

  deleteForIndex(tenantId: string, indexId: string): Promise<void> {
    return this.runner.run('deleting ingest receipts', async () => {
      await this.db.deleteFrom('ingest_receipts').where('tenant_id', '=', tenantId).where('index_id', '=', indexId).execute();
    });
  }
}

function toReceipt(row: Selectable<IngestReceiptsTable>): IngestReceipt {
  return {
    tenantId: row.tenant_id,
    indexId: row.index_id,
    ingestId: row.ingest_id,
    state: row.state,
    sequenceRanges: rangesOf(row.sequence_ranges),
    summary: row.summary === null ? null : objectOf(row.summary, 'ingest_receipts.summary'),
    createdAt: millisOf(row.created_at),
    updatedAt: millisOf(row.updated_at),
  };
}

function rangesOf(text: string): ReceiptSequenceRange[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new StoreError('corrupt ingest_receipts.sequence_ranges column: invalid json', { cause });
  }
  if (!Array.isArray(value)) throw new StoreError('corrupt ingest_receipts.sequence_ranges column: expected an array');
  return value.map((pair: unknown) => {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || !/^\d+$/.test(pair[0]) || !Number.isSafeInteger(pair[1])) {
      throw new StoreError('corrupt ingest_receipts.sequence_ranges column: expected [first, count] pairs');
    }
    return { first: BigInt(pair[0]), count: pair[1] as number };
  });
}
