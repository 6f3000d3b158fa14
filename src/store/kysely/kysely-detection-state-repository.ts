import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type UpdateObject } from 'kysely';
import type { PendingDetection, RuleRunState, ScheduledRule } from '../records.js';
import type { DetectionRuleStateTable, StoreDatabase } from '../store-database.js';
import type { DetectionStateRepository, WindowCommit } from '../store.js';
import { chunks } from './chunks.js';
import { millisOf, nullableMillisOf, objectOf } from './column-codecs.js';
import { toSummary } from './kysely-detection-rule-repository.js';
import { deliveryRow, alertRow } from './kysely-alert-repository.js';
import type { StoreQueryRunner } from './store-query-runner.js';

const runnable = ['Active', 'Staging'] as const;

/** The scheduler's per-rule state and the evaluator's memory, over Kysely. */
export class KyselyDetectionStateRepository implements DetectionStateRepository {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly runner: StoreQueryRunner,
  ) {}

  listScheduled(): Promise<ScheduledRule[]> {
    return this.runner.run('listing scheduled rules', async () => {
      const rows = await this.db
        .selectFrom('detection_rules')
        .selectAll()
        .where((eb) =>
          eb.or([eb('enabled_state_override', 'in', [...runnable]), eb.and([eb('enabled_state_override', 'is', null), eb('enabled_state_synced', 'in', [...runnable])])]),
        )
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const sinks = new Map<string, string[]>();
      const states = new Map<string, RuleRunState>();
      for (const ids of chunks(rows.map((r) => r.id))) {
        const links = await this.db.selectFrom('detection_rule_sinks').select(['rule_id', 'sink_id']).where('rule_id', 'in', ids).orderBy('rule_id').orderBy('position').execute();
        for (const link of links) sinks.set(link.rule_id, [...(sinks.get(link.rule_id) ?? []), link.sink_id]);
        const stateRows = await this.db.selectFrom('detection_rule_state').selectAll().where('rule_id', 'in', ids).execute();
        for (const state of stateRows) states.set(state.rule_id, stateOf(state));
      }
      return rows.map((row) => ({ rule: { ...toSummary(row), eventSinkIds: sinks.get(row.id) ?? [] }, state: states.get(row.id) ?? null }));
    });
  }

  getState(ruleId: string): Promise<RuleRunState | null> {
    return this.runner.run('reading rule state', async () => {
      const row = await this.db.selectFrom('detection_rule_state').selectAll().where('rule_id', '=', ruleId).executeTakeFirst();
      return row === undefined ? null : stateOf(row);
    });
  }

  resetCursor(tenantId: string, ruleId: string): Promise<void> {
    return this.runner.run('resetting rule cursor', async () => {
      await this.db.updateTable('detection_rule_state').set({ cursor_ms: null }).where('tenant_id', '=', tenantId).where('rule_id', '=', ruleId).execute();
    });
  }

  recordFailure(tenantId: string, ruleId: string, error: string, atMs: number): Promise<void> {
    return this.runner.run('recording a failed rule run', () =>
      this.db.transaction().execute(async (trx) => {
        if (!(await ruleExists(trx, ruleId))) return;
        await trx
          .insertInto('detection_rule_state')
          .values({
            rule_id: ruleId,
            tenant_id: tenantId,
            cursor_ms: null,
            last_run_at: null,
            last_error: error,
            last_error_at: atMs,
            consecutive_failures: 1,
            gap_start_ms: null,
            gap_end_ms: null,
          })
          .onConflict((oc) =>
            oc.column('rule_id').doUpdateSet({ last_error: error, last_error_at: atMs, consecutive_failures: sql<number>`detection_rule_state.consecutive_failures + 1` }),
          )
          .execute();
      }),
    );
  }

  recordGap(tenantId: string, ruleId: string, expectedCursorMs: number | null, fromMs: number, toMs: number, windows: number): Promise<boolean> {
    return this.runner.run('recording a rule gap', () =>
      this.db.transaction().execute((trx) =>
        moveCursor(
          trx,
          {
            rule_id: ruleId,
            tenant_id: tenantId,
            cursor_ms: toMs,
            last_run_at: null,
            last_error: null,
            last_error_at: null,
            gap_start_ms: fromMs,
            gap_end_ms: toMs,
            skipped_windows: windows,
          },
          { cursor_ms: toMs, gap_start_ms: fromMs, gap_end_ms: toMs, skipped_windows: sql<number>`detection_rule_state.skipped_windows + ${windows}` },
          expectedCursorMs,
        ),
      ),
    );
  }

  alertedIdentities(ruleId: string, afterWindowEndMs: number): Promise<Set<string>> {
    return this.runner.run('reading debounce memory', async () => {
      const rows = await this.db.selectFrom('detection_debounce').select('identity').where('rule_id', '=', ruleId).where('window_end_ms', '>', afterWindowEndMs).execute();
      return new Set(rows.map((r) => r.identity));
    });
  }

  lastSent(ruleId: string, keys: readonly string[]): Promise<Map<string, number>> {
    return this.runner.run('reading dedup memory', async () => {
      const found = new Map<string, number>();
      for (const part of chunks(keys)) {
        const rows = await this.db.selectFrom('detection_dedup').select(['dedup_key', 'sent_window_end_ms']).where('rule_id', '=', ruleId).where('dedup_key', 'in', part).execute();
        for (const row of rows) found.set(row.dedup_key, millisOf(row.sent_window_end_ms));
      }
      return found;
    });
  }

  commitWindow(commit: WindowCommit): Promise<boolean> {
    return this.runner.run('committing a rule window', () =>
      this.db.transaction().execute(async (trx) => {
        if (!(await ruleExists(trx, commit.ruleId))) return false;
        // A run that outlived its lease may have been taken over by another server: its result is dropped.
        if (commit.lease !== undefined && !(await leaseHeldBy(trx, commit.lease))) return false;
        // The cursor moves first and only from the run's starting point, so a window counts once
        // even if two runs of it race (another server): the loser writes nothing.
        const moved = await moveCursor(
          trx,
          {
            rule_id: commit.ruleId,
            tenant_id: commit.tenantId,
            cursor_ms: commit.windowEndMs,
            last_run_at: commit.ranAtMs,
            last_error: null,
            last_error_at: null,
            consecutive_failures: 0,
            gap_start_ms: null,
            gap_end_ms: null,
          },
          { cursor_ms: commit.windowEndMs, last_run_at: commit.ranAtMs, last_error: null, last_error_at: null, consecutive_failures: 0 },
          commit.expectedCursorMs,
        );
        if (!moved) return false;
        for (const part of chunks(commit.identities, 300)) {
          await trx
            .insertInto('detection_debounce')
            .values(part.map((identity) => ({ rule_id: commit.ruleId, identity, window_end_ms: commit.windowEndMs })))
            .onConflict((oc) => oc.columns(['rule_id', 'identity']).doUpdateSet({ window_end_ms: commit.windowEndMs }))
            .execute();
        }
        await trx.deleteFrom('detection_debounce').where('rule_id', '=', commit.ruleId).where('window_end_ms', '<=', commit.forgetIdentitiesUpToMs).execute();
        for (const part of chunks([...new Set(commit.sentDedupKeys)], 300)) {
          await trx
            .insertInto('detection_dedup')
            .values(part.map((key) => ({ rule_id: commit.ruleId, dedup_key: key, sent_window_end_ms: commit.windowEndMs })))
            .onConflict((oc) => oc.columns(['rule_id', 'dedup_key']).doUpdateSet({ sent_window_end_ms: commit.windowEndMs }))
            .execute();
        }
        for (const { alert, deliveries } of commit.alerts) {
          await trx.insertInto('alerts').values(alertRow(alert)).execute();
          if (deliveries.length > 0) await trx.insertInto('alert_deliveries').values(deliveries.map(deliveryRow)).execute();
        }
        for (const part of chunks(commit.detections, 200)) {
          await trx
            .insertInto('detection_outbox')
            .values(part.map((d) => ({ id: d.id, tenant_id: d.tenantId, at: d.at, event: JSON.stringify(d.event) })))
            .execute();
        }
        if (commit.lastAlertedAtMs !== null) {
          await trx.updateTable('detection_rules').set({ last_alerted_at: commit.lastAlertedAtMs }).where('id', '=', commit.ruleId).execute();
        }
        return true;
      }),
    );
  }

  unshippedDetections(limit: number): Promise<PendingDetection[]> {
    return this.runner.run('reading the detection outbox', async () => {
      const rows = await this.db.selectFrom('detection_outbox').selectAll().orderBy('at').orderBy('id').limit(limit).execute();
      return rows.map((row) => ({ id: row.id, tenantId: row.tenant_id, at: millisOf(row.at), event: objectOf(row.event, 'detection_outbox.event') }));
    });
  }

  markDetectionsShipped(ids: readonly string[]): Promise<void> {
    return this.runner.run('emptying the detection outbox', async () => {
      for (const part of chunks(ids)) await this.db.deleteFrom('detection_outbox').where('id', 'in', part).execute();
    });
  }
}

async function ruleExists(trx: Transaction<StoreDatabase>, ruleId: string): Promise<boolean> {
  return (await trx.selectFrom('detection_rules').select('id').where('id', '=', ruleId).executeTakeFirst()) !== undefined;
}

type StateRow = Insertable<DetectionRuleStateTable>;
type StateChanges = UpdateObject<StoreDatabase, 'detection_rule_state'>;

/**
 * Sets the rule's state row (`insert` when it has none yet, `changes` otherwise) only while its
 * cursor is still `expected`; whether it did. One conditional statement: on PostgreSQL a
 * concurrent writer of the row waits and then re-checks the condition against what committed,
 * so of two runs of one window exactly one moves the cursor; SQLite runs one writer at a time.
 */
async function moveCursor(trx: Transaction<StoreDatabase>, insert: StateRow, changes: StateChanges, expected: number | null): Promise<boolean> {
  if (expected !== null) {
    const updated = await trx
      .updateTable('detection_rule_state')
      .set(changes)
      .where('rule_id', '=', insert.rule_id)
      .where('cursor_ms', '=', expected)
      .returning('rule_id')
      .executeTakeFirst();
    return updated !== undefined;
  }
  const written = await trx
    .insertInto('detection_rule_state')
    .values(insert)
    .onConflict((oc) => oc.column('rule_id').doUpdateSet(changes).where('detection_rule_state.cursor_ms', 'is', null))
    .returning('rule_id')
    .executeTakeFirst();
  return written !== undefined;
}

async function leaseHeldBy(trx: Transaction<StoreDatabase>, lease: { readonly name: string; readonly holder: string }): Promise<boolean> {
  const row = await trx.selectFrom('leases').select('holder').where('name', '=', lease.name).executeTakeFirst();
  return row?.holder === lease.holder;
}

function stateOf(row: Selectable<DetectionRuleStateTable>): RuleRunState {
  return {
    ruleId: row.rule_id,
    tenantId: row.tenant_id,
    cursorMs: nullableMillisOf(row.cursor_ms),
    lastRunAt: nullableMillisOf(row.last_run_at),
    lastError: row.last_error,
    lastErrorAt: nullableMillisOf(row.last_error_at),
    consecutiveFailures: Number(row.consecutive_failures),
    gapStartMs: nullableMillisOf(row.gap_start_ms),
    gapEndMs: nullableMillisOf(row.gap_end_ms),
    skippedWindows: Number(row.skipped_windows),
  };
}
