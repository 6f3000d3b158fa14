import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../store-database.js';
import type { LeaseRepository } from '../store.js';
import { millisOf } from './column-codecs.js';
import type { StoreQueryRunner } from './store-query-runner.js';

/** Leases over Kysely: a claim is one conditional upsert, so racing claimants get one winner on every dialect. */
export class KyselyLeaseRepository implements LeaseRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  claim(name: string, holder: string, nowMs: number, untilMs: number): Promise<boolean> {
    return this.runner.run('claiming a lease', async () => {
      // PostgreSQL re-checks the WHERE on the row a concurrent claim just committed, SQLite runs
      // one writer at a time: either way only one claimant of an expired lease sees a row back.
      const row = await this.db
        .insertInto('leases')
        .values({ name, holder, until_ms: untilMs, acquired_at: nowMs })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet((eb) => ({
              holder,
              until_ms: untilMs,
              acquired_at: eb.case().when('leases.holder', '=', holder).then(eb.ref('leases.acquired_at')).else(nowMs).end(),
            }))
            .where((eb) => eb.or([eb('leases.holder', '=', holder), eb('leases.until_ms', '<=', nowMs)])),
        )
        .returning('name')
        .executeTakeFirst();
      return row !== undefined;
    });
  }

  release(name: string, holder: string): Promise<void> {
    return this.runner.run('releasing a lease', async () => {
      await this.db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
    });
  }

  holder(name: string, nowMs: number): Promise<string | null> {
    return this.runner.run('reading a lease', async () => {
      const row = await this.db.selectFrom('leases').select(['holder', 'until_ms']).where('name', '=', name).executeTakeFirst();
      return row === undefined || millisOf(row.until_ms) <= nowMs ? null : row.holder;
    });
  }

  releaseAll(): Promise<number> {
    return this.runner.run('releasing every lease', async () => {
      const result = await this.db.deleteFrom('leases').executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
