import type { Transaction } from 'kysely';
import type { StoreDatabase } from '../store-database.js';
import type { SyncCommit } from '../sync-source-store.js';
import { chunks } from './chunks.js';
import { checkSinks, linkSinks, toChangedColumns, toRow } from './kysely-detection-rule-repository.js';

/**
 * Writes one repository sync inside the caller's transaction; false (nothing written) when the
 * source's revision moved. The revision is bumped first: on PostgreSQL that takes the source's
 * row lock, so a second sync of the source waits here and then finds the revision changed; on
 * SQLite the transaction already holds the write lock from `begin immediate`.
 */
export async function applySyncCommit(trx: Transaction<StoreDatabase>, commit: SyncCommit): Promise<boolean> {
  const { tenantId, sourceId } = commit;
  const bumped = await trx
    .updateTable('sync_sources')
    .set({
      revision: commit.expectedRevision + 1,
      last_commit_sha: commit.commitSha,
      last_commit_message: commit.commitMessage,
      last_synced_at: commit.atMs,
      updated_at: commit.atMs,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', sourceId)
    .where('revision', '=', commit.expectedRevision)
    .executeTakeFirst();
  if (bumped.numUpdatedRows === 0n) return false;

  // Deletions first, so a create never meets the sync key of a rule on its way out.
  for (const batch of chunks(commit.deletes)) {
    await trx.deleteFrom('detection_rule_sinks').where('tenant_id', '=', tenantId).where('rule_id', 'in', batch).execute();
    await trx.deleteFrom('detection_rules').where('tenant_id', '=', tenantId).where('detection_rule_sync_id', '=', sourceId).where('id', 'in', batch).execute();
  }
  for (const { id, changes } of commit.updates) {
    await trx
      .updateTable('detection_rules')
      .set({ ...toChangedColumns(changes), updated_at: commit.atMs })
      .where('tenant_id', '=', tenantId)
      .where('detection_rule_sync_id', '=', sourceId)
      .where('id', '=', id)
      .execute();
    if (changes.eventSinkIds !== undefined) {
      await checkSinks(trx, tenantId, changes.eventSinkIds);
      await trx.deleteFrom('detection_rule_sinks').where('rule_id', '=', id).execute();
      await linkSinks(trx, tenantId, id, changes.eventSinkIds);
    }
  }
  for (const rule of commit.creates) {
    await checkSinks(trx, tenantId, rule.eventSinkIds);
    // The source owns what it creates, whatever the caller put in those two fields.
    await trx
      .insertInto('detection_rules')
      .values(toRow({ ...rule, tenantId, detectionRuleSyncId: sourceId }))
      .execute();
    await linkSinks(trx, tenantId, rule.id, rule.eventSinkIds);
  }
  const { audit } = commit;
  await trx
    .insertInto('audit_outbox')
    .values({
      id: audit.id,
      tenant_id: audit.tenantId,
      at: audit.at,
      actor: audit.actor,
      action: audit.action,
      target: audit.target,
      details: JSON.stringify(audit.details),
      shipped_at: null,
    })
    .execute();
  return true;
}
