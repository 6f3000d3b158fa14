import type { Kysely, Selectable } from 'kysely';
import type { QueryRecord } from '../records.js';
import type { QueryRecordsTable, StoreDatabase } from '../store-database.js';
import type { QueryRecordProgress, QueryRecordRepository } from '../store.js';
import { chunks } from './chunks.js';
import { millisOf, nullableMillisOf } from './column-codecs.js';
import type { StoreQueryRunner } from './store-query-runner.js';

/** Shared ad hoc query records over Kysely. */
export class KyselyQueryRecordRepository implements QueryRecordRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  insert(record: QueryRecord): Promise<void> {
    return this.runner.run('recording a query', async () => {
      await this.db
        .insertInto('query_records')
        .values({
          id: record.id,
          tenant_id: record.tenantId,
          owner: record.owner,
          status: record.status,
          result: record.result,
          bytes_scanned: record.bytesScanned,
          truncated: record.truncated ? 1 : 0,
          error: record.error,
          cancel_requested_at: record.cancelRequestedAt,
          created_at: record.createdAt,
          updated_at: record.updatedAt,
          finished_at: record.finishedAt,
        })
        .execute();
    });
  }

  get(id: string): Promise<QueryRecord | null> {
    return this.runner.run('reading a query record', async () => {
      const row = await this.db.selectFrom('query_records').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : recordOf(row);
    });
  }

  update(id: string, progress: QueryRecordProgress): Promise<void> {
    return this.runner.run('writing query progress', async () => {
      await this.db
        .updateTable('query_records')
        .set({
          status: progress.status,
          result: progress.result,
          bytes_scanned: progress.bytesScanned,
          truncated: progress.truncated ? 1 : 0,
          error: progress.error,
          updated_at: progress.atMs,
          finished_at: progress.status === 'running' ? null : progress.atMs,
        })
        .where('id', '=', id)
        .execute();
    });
  }

  heartbeat(ids: readonly string[], atMs: number): Promise<void> {
    return this.runner.run('marking queries alive', async () => {
      for (const part of chunks(ids)) await this.db.updateTable('query_records').set({ updated_at: atMs }).where('id', 'in', part).where('status', '=', 'running').execute();
    });
  }

  requestCancel(id: string, atMs: number): Promise<void> {
    return this.runner.run('asking to cancel a query', async () => {
      await this.db
        .updateTable('query_records')
        .set({ cancel_requested_at: atMs })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where('cancel_requested_at', 'is', null)
        .execute();
    });
  }

  cancelRequested(ids: readonly string[]): Promise<string[]> {
    return this.runner.run('reading cancel requests', async () => {
      const found: string[] = [];
      for (const part of chunks(ids)) {
        const rows = await this.db
          .selectFrom('query_records')
          .select('id')
          .where('id', 'in', part)
          .where('status', '=', 'running')
          .where('cancel_requested_at', 'is not', null)
          .execute();
        found.push(...rows.map((r) => r.id));
      }
      return found;
    });
  }

  deleteExpired(beforeMs: number, silentBeforeMs: number): Promise<number> {
    return this.runner.run('forgetting expired queries', async () => {
      const finished = await this.db.deleteFrom('query_records').where('finished_at', 'is not', null).where('finished_at', '<', beforeMs).executeTakeFirst();
      const silent = await this.db.deleteFrom('query_records').where('status', '=', 'running').where('updated_at', '<', silentBeforeMs).executeTakeFirst();
      return Number(finished.numDeletedRows) + Number(silent.numDeletedRows);
    });
  }
}

function recordOf(row: Selectable<QueryRecordsTable>): QueryRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    owner: row.owner,
    status: row.status,
    result: row.result,
    bytesScanned: millisOf(row.bytes_scanned),
    truncated: Number(row.truncated) === 1,
    error: row.error,
    cancelRequestedAt: nullableMillisOf(row.cancel_requested_at),
    createdAt: millisOf(row.created_at),
    updatedAt: millisOf(row.updated_at),
    finishedAt: nullableMillisOf(row.finished_at),
  };
}
