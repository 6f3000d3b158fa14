import { messageOf, type Clock, type Logger } from '../core/index.js';
import type { Engine } from '../engine/index.js';
import { defaultTimestampFields } from '../ingest/index.js';
import type { WorkLeases } from '../detections/index.js';
import type { AuditEntry, Store } from '../store/index.js';
import { writeSystemEvents } from './system-events.js';
import type { TenantService } from './tenant-service.js';

const dayNs = 86_400_000_000_000n;
const auditBatch = 1000;

/** What maintenance tells, or asks of, the rest of the process. */
export interface MaintenanceHooks {
  /** Told the tenant before audit entries are written as its events; the result is called after. */
  readonly writingEvents?: (tenantId: string) => () => void;
  /** Deletes the events of rule tests that a stopped process left (RuleTestRunner.sweepLeftovers). */
  readonly sweepRuleTestLeftovers?: () => Promise<number>;
  /**
   * The process's leases, when several processes share the store: maintenance then runs only
   * in the holder of the `maintenance` lease, so each interval's work is done once.
   */
  readonly leases?: WorkLeases;
}

const maintenanceLease = 'maintenance';

/**
 * Background upkeep of the process that holds the events engine: ships the audit outbox into
 * each tenant's `_audit` index, purges the events of deleted indexes, applies retention and
 * deletes the events interrupted rule tests left.
 */
export class Maintenance {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** How long a claim of the maintenance lease lasts: past the next run, so the holder keeps it while alive. */
  private leaseMs = 10 * 60_000;

  constructor(
    private readonly store: Store,
    private readonly engine: Engine,
    private readonly tenants: TenantService,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly hooks: MaintenanceHooks = {},
  ) {}

  /**
   * Runs every task once; a failing task is logged and does not stop the others. With shared
   * leases, only while this process holds the maintenance lease (renewed before each task).
   */
  async runOnce(): Promise<void> {
    const { leases } = this.hooks;
    for (const [name, task] of [
      ['ship audit trail', () => this.shipAudit()],
      ['purge deleted indexes', () => this.purgeDeletedIndexes()],
      ['apply retention', () => this.applyRetention()],
      ['sweep rule test leftovers', () => this.hooks.sweepRuleTestLeftovers?.()],
    ] as const) {
      try {
        if (leases && !(await leases.claim(maintenanceLease, this.leaseMs))) return;
        await task();
      } catch (error) {
        this.logger.error({ err: messageOf(error), task: name }, 'maintenance task failed');
      }
    }
  }

  /** Moves every unshipped audit entry into its tenant's `_audit` index. */
  async shipAudit(): Promise<number> {
    let shipped = 0;
    for (;;) {
      const entries = await this.store.audit.listUnshipped(auditBatch);
      if (entries.length === 0) return shipped;
      const byTenant = groupByTenant(entries);
      for (const [tenantId, tenantEntries] of byTenant) {
        const tenant = await this.tenants.ensure(tenantId);
        const auditIndex = await this.tenants.systemIndex(tenant.id, '_audit');
        if (!auditIndex) continue;
        const records = tenantEntries.map((e) => ({
          '@timestamp': new Date(e.at).toISOString(),
          actor: e.actor,
          action: e.action,
          target: e.target,
          details: e.details,
          audit_id: e.id,
        }));
        await writeSystemEvents(
          { engine: this.engine, store: this.store, clock: this.clock, writingEvents: this.hooks.writingEvents ?? (() => () => {}) },
          { tenantId: tenant.id, indexId: auditIndex.id, timestampFields: defaultTimestampFields, sourceType: 'vigil:audit' },
          records,
        );
        await this.store.audit.markShipped(tenantEntries.map((e) => e.id));
        shipped += tenantEntries.length;
      }
    }
  }

  /** Deletes the events of deleted indexes, then forgets the indexes. */
  async purgeDeletedIndexes(): Promise<number> {
    const deleted = await this.store.indexes.listDeleted();
    for (const index of deleted) {
      await this.engine.deleteIndexEvents(index.tenantId, index.id);
      await this.store.ingestReceipts.deleteForIndex(index.tenantId, index.id);
      await this.store.indexes.purge(index.id);
      this.logger.info({ tenant: index.tenantId, index: index.id }, 'purged events of deleted index');
    }
    return deleted.length;
  }

  /** Deletes events older than each index's retention. */
  async applyRetention(): Promise<void> {
    const nowNs = BigInt(this.clock.nowMs()) * 1_000_000n;
    for (const index of await this.store.indexes.listAllLive()) {
      if (index.retentionDays === null) continue;
      await this.engine.deleteEventsBefore(index.tenantId, index.id, nowNs - BigInt(index.retentionDays) * dayNs);
    }
  }

  /** Runs the tasks now and then every intervalMs, never two runs at once. */
  start(intervalMs: number): void {
    this.leaseMs = intervalMs + 60_000;
    const tick = (): void => {
      if (this.running) return;
      this.running = this.runOnce().finally(() => {
        this.running = null;
      });
    };
    tick();
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    // Another process takes maintenance over at once instead of when the lease expires.
    await this.hooks.leases?.release(maintenanceLease).catch(() => undefined);
  }
}

function groupByTenant(entries: readonly AuditEntry[]): Map<string, AuditEntry[]> {
  const groups = new Map<string, AuditEntry[]>();
  for (const entry of entries) {
    const group = groups.get(entry.tenantId);
    if (group) group.push(entry);
    else groups.set(entry.tenantId, [entry]);
  }
  return groups;
}
