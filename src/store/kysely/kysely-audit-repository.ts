import type { Kysely, Selectable } from 'kysely';
import { ConflictError, ValidationError, type Clock } from '../../core/index.js';
import type { AuditEntry } from '../records.js';
import type { AuditOutboxTable, StoreDatabase } from '../store-database.js';
import type { AuditRepository } from '../store.js';
import { millisOf, objectOf } from './column-codecs.js';
import type { StoreQueryRunner } from './store-query-runner.js';

// Well under SQLite's and PostgreSQL's bound-parameter limits.
const shipBatchSize = 500;

/** The audit outbox over Kysely, for every dialect. */
export class KyselyAuditRepository implements AuditRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
    private readonly clock: Clock,
  ) {}

  append(entry: AuditEntry): Promise<void> {
    return this.runner.run(
      'appending audit entry',
      async () => {
        await this.db
          .insertInto('audit_outbox')
          .values({
            id: entry.id,
            tenant_id: entry.tenantId,
            at: entry.at,
            actor: entry.actor,
            action: entry.action,
            target: entry.target,
            details: JSON.stringify(entry.details),
            shipped_at: null,
          })
          .execute();
      },
      { unique: (cause) => new ConflictError(`audit entry "${entry.id}" already exists`, { cause }) },
    );
  }

  /** Ordered by `at`, then id for entries of the same millisecond. */
  async listUnshipped(limit: number): Promise<AuditEntry[]> {
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new ValidationError(`limit must be a positive integer, got ${limit}`, { field: 'limit' });
    }
    return this.runner.run('listing unshipped audit entries', async () => {
      const rows = await this.db.selectFrom('audit_outbox').selectAll().where('shipped_at', 'is', null).orderBy('at').orderBy('id').limit(limit).execute();
      return rows.map(toAuditEntry);
    });
  }

  /** Stamps `shipped_at` with the store's clock; unknown ids are ignored. */
  markShipped(ids: readonly string[]): Promise<void> {
    return this.runner.run('marking audit entries shipped', async () => {
      const atMs = this.clock.nowMs();
      for (let start = 0; start < ids.length; start += shipBatchSize) {
        await this.db
          .updateTable('audit_outbox')
          .set({ shipped_at: atMs })
          .where('id', 'in', ids.slice(start, start + shipBatchSize))
          .where('shipped_at', 'is', null)
          .execute();
      }
    });
  }
}

function toAuditEntry(row: Selectable<AuditOutboxTable>): AuditEntry {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    at: millisOf(row.at),
    actor: row.actor,
    action: row.action,
    target: row.target,
    details: objectOf(row.details, 'audit_outbox.details'),
  };
}
