import type { Kysely, Selectable } from 'kysely';
import { ConflictError } from '../../core/index.js';
import type { ApiKeyRecord } from '../records.js';
import type { ApiKeysTable, StoreDatabase } from '../store-database.js';
import type { ApiKeyRepository } from '../store.js';
import { nullableMillisOf, millisOf, stringArrayOf } from './column-codecs.js';
import type { StoreQueryRunner } from './store-query-runner.js';

/** How stale `last_used_at` may get: touch runs on every request, a write per request is too many. */
export const touchIntervalMs = 60_000;

/** API keys over Kysely, for every dialect. */
export class KyselyApiKeyRepository implements ApiKeyRepository {
  /**
   * The last `last_used_at` this instance wrote per key. It answers most touches without a
   * statement at all: on SQLite even an UPDATE that matches nothing takes the write lock that
   * the CLI processes wait on.
   */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  insert(key: ApiKeyRecord): Promise<void> {
    return this.runner.run(
      'inserting api key',
      async () => {
        await this.db
          .insertInto('api_keys')
          .values({
            id: key.id,
            name: key.name,
            prefix: key.prefix,
            key_hash: key.keyHash,
            tenants: JSON.stringify(key.tenants),
            created_at: key.createdAt,
            revoked_at: key.revokedAt,
            last_used_at: key.lastUsedAt,
          })
          .execute();
      },
      { unique: (cause) => new ConflictError(`api key "${key.name}" already exists`, { cause }) },
    );
  }

  findActiveByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.runner.run('finding api key', async () => {
      const row = await this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst();
      return row === undefined ? null : toApiKey(row);
    });
  }

  get(id: string): Promise<ApiKeyRecord | null> {
    return this.runner.run('reading api key', async () => {
      const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : toApiKey(row);
    });
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.runner.run('listing api keys', async () => {
      const rows = await this.db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(toApiKey);
    });
  }

  revoke(id: string, atMs: number): Promise<boolean> {
    return this.runner.run('revoking api key', async () => {
      const result = await this.db.updateTable('api_keys').set({ revoked_at: atMs }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    });
  }

  /** Writes only when the stored use is a minute old or more; never moves `last_used_at` back. */
  async touch(id: string, atMs: number): Promise<void> {
    const written = this.touched.get(id);
    if (written !== undefined && atMs - written < touchIntervalMs) return;
    await this.runner.run('recording api key use', async () => {
      // The condition repeats the throttle in SQL for the other processes sharing the store.
      const result = await this.db
        .updateTable('api_keys')
        .set({ last_used_at: atMs })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', atMs - touchIntervalMs)]))
        .executeTakeFirst();
      // Remember only our own writes: when another process wrote recently we do not know when,
      // and guessing could leave the key looking idle for two minutes.
      if (result.numUpdatedRows > 0n) this.touched.set(id, atMs);
    });
  }

  anyActive(): Promise<boolean> {
    return this.runner.run('checking for live api keys', async () => {
      const row = await this.db.selectFrom('api_keys').select('id').where('revoked_at', 'is', null).limit(1).executeTakeFirst();
      return row !== undefined;
    });
  }
}

function toApiKey(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    keyHash: row.key_hash,
    tenants: stringArrayOf(row.tenants, 'api_keys.tenants'),
    createdAt: millisOf(row.created_at),
    revokedAt: nullableMillisOf(row.revoked_at),
    lastUsedAt: nullableMillisOf(row.last_used_at),
  };
}
