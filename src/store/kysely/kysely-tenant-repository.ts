import { sql, type Kysely, type Selectable } from 'kysely';
import { ConflictError, NotFoundError, ValidationError } from '../../core/index.js';
import type { TenantRecord } from '../records.js';
import type { StoreDatabase, TenantsTable } from '../store-database.js';
import type { TenantRepository } from '../store.js';
import { millisOf } from './column-codecs.js';
import type { StoreQueryRunner } from './store-query-runner.js';

/** Tenants over Kysely, for every dialect. */
export class KyselyTenantRepository implements TenantRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  ensure(id: string, atMs: number, name: string = id): Promise<{ tenant: TenantRecord; created: boolean }> {
    return this.runner.run('ensuring tenant', async () => {
      // Insert-or-ignore, then read: two processes ensuring the same tenant both succeed, and
      // exactly one of them reports created. A name another tenant has is a conflict too.
      const inserted = await this.db
        .insertInto('tenants')
        .values({ id, name, created_at: atMs })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      const row = await this.db.selectFrom('tenants').select(['id', 'name', 'created_at']).where('id', '=', id).executeTakeFirst();
      if (row === undefined) throw new ConflictError(`tenant name ${JSON.stringify(name)} belongs to another tenant`, { field: 'tenant_id' });
      return { tenant: toTenant(row), created: (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n };
    });
  }

  getByName(name: string): Promise<TenantRecord | null> {
    return this.runner.run('reading tenant', async () => {
      const row = await this.db.selectFrom('tenants').select(['id', 'name', 'created_at']).where('name', '=', name).executeTakeFirst();
      return row === undefined ? null : toTenant(row);
    });
  }

  get(id: string): Promise<TenantRecord | null> {
    return this.runner.run('reading tenant', async () => {
      const row = await this.db.selectFrom('tenants').select(['id', 'name', 'created_at']).where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : toTenant(row);
    });
  }

  list(): Promise<TenantRecord[]> {
    return this.runner.run('listing tenants', async () => {
      const rows = await this.db.selectFrom('tenants').select(['id', 'name', 'created_at']).orderBy('id').execute();
      return rows.map(toTenant);
    });
  }

  /** NotFoundError when the tenant does not exist (callers ensure it first). */
  async reserveSequence(tenantId: string, count: number): Promise<bigint> {
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new ValidationError(`sequence count must be a positive integer, got ${count}`, { field: 'count' });
    }
    const row = await this.runner.run('reserving event sequence numbers', () =>
      // One statement, so the increment is atomic across processes and replicas without a
      // transaction. The cast keeps the arithmetic in 64-bit integers on both dialects, and the
      // text read-back keeps values past 2^53 exact.
      this.db
        .updateTable('tenants')
        .set({ next_seq: sql<number>`next_seq + cast(${count} as bigint)` })
        .where('id', '=', tenantId)
        .returning(sql<string>`cast(next_seq as text)`.as('next_seq'))
        .executeTakeFirst(),
    );
    if (row === undefined) throw new NotFoundError(`tenant "${tenantId}" not found`);
    return BigInt(row.next_seq) - BigInt(count);
  }
}

function toTenant(row: Pick<Selectable<TenantsTable>, 'id' | 'name' | 'created_at'>): TenantRecord {
  return { id: row.id, name: row.name ?? row.id, createdAt: millisOf(row.created_at) };
}
