import { sql, type Kysely } from 'kysely';
import type { QueryUsageRepository } from '../compatibility-store.js';
import type { StoreDatabase } from '../store-database.js';
import type { StoreQueryRunner } from './store-query-runner.js';

/** Query usage over Kysely, for every dialect: one row per tenant and day, added to in place. */
export class KyselyQueryUsageRepository implements QueryUsageRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  add(tenantId: string, day: string, bytes: number): Promise<void> {
    return this.runner.run('recording query usage', async () => {
      await this.db
        .insertInto('query_usage')
        .values({ tenant_id: tenantId, day, bytes_scanned: bytes })
        .onConflict((oc) => oc.columns(['tenant_id', 'day']).doUpdateSet({ bytes_scanned: sql<number>`query_usage.bytes_scanned + excluded.bytes_scanned` }))
        .execute();
    });
  }

  total(tenantId: string, fromDay: string, toDay: string): Promise<number> {
    return this.runner.run('reading query usage', async () => {
      const row = await this.db
        .selectFrom('query_usage')
        .select(sql<string | number | null>`sum(bytes_scanned)`.as('bytes'))
        .where('tenant_id', '=', tenantId)
        .where('day', '>=', fromDay)
        .where('day', '<=', toDay)
        .executeTakeFirst();
      return Number(row?.bytes ?? 0);
    });
  }
}
