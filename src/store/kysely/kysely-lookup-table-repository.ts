import type { Kysely, Selectable } from 'kysely';
import { ConflictError, NotFoundError } from '../../core/index.js';
import type { LookupTableChanges, LookupTableRecord, LookupTableRepository } from '../compatibility-store.js';
import type { Page } from '../records.js';
import type { PageOptions } from '../repository-options.js';
import type { LookupTablesTable, StoreDatabase } from '../store-database.js';
import { millisOf } from './column-codecs.js';
import { afterPosition, creationOrderStart, pageOf } from './creation-order-page.js';
import type { StoreQueryRunner } from './store-query-runner.js';

// Every column but the file itself: listings never read the CSV.
const recordColumns = ['id', 'tenant_id', 'name', 'description', 'columns', 'num_rows', 'size_bytes', 'data_version', 'created_at', 'updated_at'] as const;

/** Lookup tables over Kysely, for every dialect. */
export class KyselyLookupTableRepository implements LookupTableRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  insert(table: LookupTableRecord, csv: string): Promise<void> {
    return this.runner.run(
      'inserting lookup table',
      async () => {
        await this.db
          .insertInto('lookup_tables')
          .values({
            id: table.id,
            tenant_id: table.tenantId,
            name: table.name,
            description: table.description,
            columns: JSON.stringify(table.columns),
            num_rows: table.numRows,
            size_bytes: table.sizeBytes,
            data_version: table.dataVersion,
            csv,
            created_at: table.createdAt,
            updated_at: table.updatedAt,
          })
          .execute();
      },
      {
        unique: (cause) => new ConflictError(`tenant ${JSON.stringify(table.tenantId)} already has a lookup table named ${JSON.stringify(table.name)}`, { cause, field: 'name' }),
        foreign_key: (cause) => new NotFoundError(`tenant "${table.tenantId}" not found`, { cause }),
      },
    );
  }

  get(tenantId: string, id: string): Promise<LookupTableRecord | null> {
    return this.one('reading lookup table', (q) => q.where('tenant_id', '=', tenantId).where('id', '=', id));
  }

  getAnyTenant(id: string): Promise<LookupTableRecord | null> {
    return this.one('reading lookup table', (q) => q.where('id', '=', id));
  }

  getByName(tenantId: string, name: string): Promise<LookupTableRecord | null> {
    return this.one('reading lookup table', (q) => q.where('tenant_id', '=', tenantId).where('name', '=', name));
  }

  listAll(tenantId: string): Promise<LookupTableRecord[]> {
    return this.runner.run('listing lookup tables', async () => {
      const rows = await this.db.selectFrom('lookup_tables').select(recordColumns).where('tenant_id', '=', tenantId).orderBy('name').execute();
      return rows.map(toRecord);
    });
  }

  list(tenantId: string, options: PageOptions): Promise<Page<LookupTableRecord>> {
    const start = creationOrderStart(options);
    return this.runner.run('listing lookup tables', async () => {
      let query = this.db.selectFrom('lookup_tables').select(recordColumns).where('tenant_id', '=', tenantId);
      if (start !== null) query = query.where(afterPosition(start));
      const rows = await query
        .orderBy('created_at')
        .orderBy('id')
        .limit(options.pageSize + 1)
        .execute();
      return pageOf(rows.map(toRecord), options.pageSize);
    });
  }

  csv(tenantId: string, id: string): Promise<string | null> {
    return this.runner.run('reading lookup table data', async () => {
      const row = await this.db.selectFrom('lookup_tables').select('csv').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return row?.csv ?? null;
    });
  }

  update(tenantId: string, id: string, changes: LookupTableChanges, atMs: number): Promise<LookupTableRecord | null> {
    return this.runner.run('updating lookup table', async () => {
      const data = changes.data;
      await this.db
        .updateTable('lookup_tables')
        .set({
          updated_at: atMs,
          ...(changes.description !== undefined ? { description: changes.description } : {}),
          ...(data ? { columns: JSON.stringify(data.columns), num_rows: data.numRows, size_bytes: data.sizeBytes, data_version: data.dataVersion, csv: data.csv } : {}),
        })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .execute();
      return this.get(tenantId, id);
    });
  }

  delete(tenantId: string, id: string): Promise<boolean> {
    return this.runner.run('deleting lookup table', async () => {
      const result = await this.db.deleteFrom('lookup_tables').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return (result.numDeletedRows ?? 0n) > 0n;
    });
  }

  private one(what: string, filter: (q: ReturnType<typeof this.selectRecord>) => ReturnType<typeof this.selectRecord>): Promise<LookupTableRecord | null> {
    return this.runner.run(what, async () => {
      const row = await filter(this.selectRecord()).executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    });
  }

  private selectRecord() {
    return this.db.selectFrom('lookup_tables').select(recordColumns);
  }
}

function toRecord(row: Pick<Selectable<LookupTablesTable>, (typeof recordColumns)[number]>): LookupTableRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    description: row.description,
    columns: JSON.parse(row.columns) as string[],
    numRows: Number(row.num_rows),
    sizeBytes: Number(row.size_bytes),
    dataVersion: row.data_version,
    createdAt: millisOf(row.created_at),
    updatedAt: millisOf(row.updated_at),
  };
}
