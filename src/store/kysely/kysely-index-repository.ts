import type { Kysely, Selectable } from 'kysely';
import { ConflictError, NotFoundError, ValidationError } from '../../core/index.js';
import { decodePageToken, encodePageToken } from '../page-token.js';
import type { IndexRecord, Page } from '../records.js';
import type { IndexesTable, StoreDatabase } from '../store-database.js';
import type { IndexListOptions, IndexRepository } from '../store.js';
import { millisOf, nullableMillisOf, stringArrayOf } from './column-codecs.js';
import type { StoreQueryRunner } from './store-query-runner.js';

type IndexChanges = Parameters<IndexRepository['update']>[2];

/**
 * Indexes over Kysely, for every dialect. Every read filters on `deleted_at is null` and, where a
 * tenant is given, on `tenant_id`: a deleted or foreign index is simply not there.
 */
export class KyselyIndexRepository implements IndexRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  /** ConflictError for a live duplicate name; NotFoundError when the tenant does not exist. */
  insert(index: IndexRecord): Promise<void> {
    return this.runner.run(
      'inserting index',
      async () => {
        await this.db
          .insertInto('indexes')
          .values({
            id: index.id,
            tenant_id: index.tenantId,
            name: index.name,
            description: index.description,
            kind: index.kind,
            retention_days: index.retentionDays,
            timestamp_fields: index.timestampFields === null ? null : JSON.stringify(index.timestampFields),
            source_type: index.sourceType,
            created_at: index.createdAt,
            updated_at: index.updatedAt,
            deleted_at: index.deletedAt,
          })
          .execute();
      },
      {
        unique: (cause) => new ConflictError(`index "${index.name}" already exists`, { cause }),
        foreign_key: (cause) => new NotFoundError(`tenant "${index.tenantId}" not found`, { cause }),
      },
    );
  }

  get(tenantId: string, id: string): Promise<IndexRecord | null> {
    return this.runner.run('reading index', async () => {
      const row = await this.live(tenantId).where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : toIndex(row);
    });
  }

  /** Not tenant-scoped: the caller checks the requester may see the index's tenant. */
  getAnyTenant(id: string): Promise<IndexRecord | null> {
    return this.runner.run('reading index', async () => {
      const row = await this.db.selectFrom('indexes').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
      return row === undefined ? null : toIndex(row);
    });
  }

  getByName(tenantId: string, name: string): Promise<IndexRecord | null> {
    return this.runner.run('reading index', async () => {
      const row = await this.live(tenantId).where('name', '=', name).executeTakeFirst();
      return row === undefined ? null : toIndex(row);
    });
  }

  /**
   * Keyset pagination: the token holds the last (name, id) served and the next page starts
   * strictly after it, so rows added or removed between fetches never shift a page. Without
   * `kind`, system indexes are listed too; hiding them is the API's choice. An empty token is
   * the first page.
   */
  async list(tenantId: string, options: IndexListOptions): Promise<Page<IndexRecord>> {
    const { pageSize } = options;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
      throw new ValidationError('page size must be a positive integer', { field: 'pagination[page_size]' });
    }
    const after = options.pageToken ? decodeIndexKey(options.pageToken) : null;
    return this.runner.run('listing indexes', async () => {
      let query = this.live(tenantId);
      if (options.kind !== undefined) query = query.where('kind', '=', options.kind);
      if (after !== null) {
        const [name, id] = after;
        query = query.where((eb) => eb.or([eb('name', '>', name), eb.and([eb('name', '=', name), eb('id', '>', id)])]));
      }
      // One row more than asked tells whether another page exists without a count.
      const rows = await query
        .orderBy('name')
        .orderBy('id')
        .limit(pageSize + 1)
        .execute();
      const items = rows.slice(0, pageSize).map(toIndex);
      const last = items.at(-1);
      const nextPageToken = rows.length > pageSize && last !== undefined ? encodePageToken([last.name, last.id]) : null;
      return { items, nextPageToken };
    });
  }

  listAllLive(): Promise<IndexRecord[]> {
    return this.runner.run('listing live indexes', async () => {
      const rows = await this.db.selectFrom('indexes').selectAll().where('deleted_at', 'is', null).orderBy('tenant_id').orderBy('name').orderBy('id').execute();
      return rows.map(toIndex);
    });
  }

  /** Changes only the given fields (undefined means unchanged, null clears); no fields, no write. */
  update(tenantId: string, id: string, changes: IndexChanges, atMs: number): Promise<IndexRecord | null> {
    return this.runner.run('updating index', async () => {
      const set = {
        ...(changes.description === undefined ? {} : { description: changes.description }),
        ...(changes.retentionDays === undefined ? {} : { retention_days: changes.retentionDays }),
        ...(changes.timestampFields === undefined ? {} : { timestamp_fields: changes.timestampFields === null ? null : JSON.stringify(changes.timestampFields) }),
        ...(changes.sourceType === undefined ? {} : { source_type: changes.sourceType }),
      };
      if (Object.keys(set).length === 0) return this.get(tenantId, id);
      const row = await this.db
        .updateTable('indexes')
        .set({ ...set, updated_at: atMs })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? null : toIndex(row);
    });
  }

  markDeleted(tenantId: string, id: string, atMs: number): Promise<boolean> {
    return this.runner.run('deleting index', async () => {
      const result = await this.db
        .updateTable('indexes')
        .set({ deleted_at: atMs })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    });
  }

  /** Oldest deletion first, so purging works through the backlog in order. */
  listDeleted(): Promise<IndexRecord[]> {
    return this.runner.run('listing deleted indexes', async () => {
      const rows = await this.db.selectFrom('indexes').selectAll().where('deleted_at', 'is not', null).orderBy('deleted_at').orderBy('id').execute();
      return rows.map(toIndex);
    });
  }

  /** Does nothing to a live index: only soft-deleted rows are ever removed. */
  purge(id: string): Promise<void> {
    return this.runner.run('purging index', async () => {
      await this.db.deleteFrom('indexes').where('id', '=', id).where('deleted_at', 'is not', null).execute();
    });
  }

  private live(tenantId: string) {
    return this.db.selectFrom('indexes').selectAll().where('tenant_id', '=', tenantId).where('deleted_at', 'is', null);
  }
}

function decodeIndexKey(token: string): readonly [name: string, id: string] {
  const [name, id] = decodePageToken(token, 2);
  if (typeof name !== 'string' || typeof id !== 'string') {
    throw new ValidationError('invalid page token', { field: 'pagination[page_token]' });
  }
  return [name, id];
}

function toIndex(row: Selectable<IndexesTable>): IndexRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    retentionDays: row.retention_days,
    timestampFields: row.timestamp_fields === null ? null : stringArrayOf(row.timestamp_fields, 'indexes.timestamp_fields'),
    sourceType: row.source_type,
    createdAt: millisOf(row.created_at),
    updatedAt: millisOf(row.updated_at),
    deletedAt: nullableMillisOf(row.deleted_at),
  };
}
