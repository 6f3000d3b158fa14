import type { Kysely, Selectable } from 'kysely';
import { ConflictError, NotFoundError } from '../../core/index.js';
import type { ChatIntegrationRecord } from '../records.js';
import type { ChatIntegrationsTable, StoreDatabase } from '../store-database.js';
import type { ChatIntegrationRepository } from '../store.js';
import { millisOf } from './column-codecs.js';
import type { StoreQueryRunner } from './store-query-runner.js';

/** Chat integrations over Kysely, for every dialect. */
export class KyselyChatIntegrationRepository implements ChatIntegrationRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  insert(integration: ChatIntegrationRecord): Promise<void> {
    return this.runner.run(
      'inserting chat integration',
      async () => {
        await this.db
          .insertInto('chat_integrations')
          .values({
            id: integration.id,
            tenant_id: integration.tenantId,
            name: integration.name,
            api_url: integration.apiUrl,
            sealed_token: integration.sealedToken,
            token_hint: integration.tokenHint,
            created_at: integration.createdAt,
          })
          .execute();
      },
      {
        unique: (cause) => new ConflictError(`chat integration "${integration.id}" already exists`, { cause }),
        foreign_key: (cause) => new NotFoundError(`tenant "${integration.tenantId}" not found`, { cause }),
      },
    );
  }

  get(tenantId: string, id: string): Promise<ChatIntegrationRecord | null> {
    return this.runner.run('reading chat integration', async () => {
      const row = await this.db.selectFrom('chat_integrations').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : toIntegration(row);
    });
  }

  list(tenantId?: string): Promise<ChatIntegrationRecord[]> {
    return this.runner.run('listing chat integrations', async () => {
      let query = this.db.selectFrom('chat_integrations').selectAll();
      if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
      const rows = await query.orderBy('created_at').orderBy('id').execute();
      return rows.map(toIntegration);
    });
  }

  delete(tenantId: string, id: string): Promise<boolean> {
    return this.runner.run(
      'deleting chat integration',
      async () => {
        const result = await this.db.deleteFrom('chat_integrations').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
        return result.numDeletedRows > 0n;
      },
      { foreign_key: (cause) => new ConflictError(`chat integration "${id}" is used by event sinks: delete or change them first`, { cause }) },
    );
  }
}

function toIntegration(row: Selectable<ChatIntegrationsTable>): ChatIntegrationRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    apiUrl: row.api_url,
    sealedToken: row.sealed_token,
    tokenHint: row.token_hint,
    createdAt: millisOf(row.created_at),
  };
}
