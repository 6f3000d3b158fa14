import { newId, type Clock } from '../core/index.js';
import type { IndexRecord, Store, TenantRecord } from '../store/index.js';
import { checkTenantId } from './names.js';

/** The system indexes every tenant has; they are never listed and their ids answer 404. */
export const systemIndexNames = ['_detections', '_audit'] as const;
export type SystemIndexName = (typeof systemIndexNames)[number];

/** Creates tenants together with their system indexes. */
export class TenantService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Returns the tenant, creating it and its system indexes on first use. */
  async ensure(tenantId: string): Promise<TenantRecord> {
    checkTenantId(tenantId);
    const now = this.clock.nowMs();
    const { tenant } = await this.store.tenants.ensure(tenantId, now);
    for (const name of systemIndexNames) {
      if (await this.store.indexes.getByName(tenantId, name)) continue;
      const index: IndexRecord = {
        id: newId(),
        tenantId,
        name,
        description: name === '_audit' ? 'who changed what, and when' : 'one event per detection',
        kind: 'system',
        retentionDays: null,
        timestampFields: null,
        sourceType: name === '_audit' ? 'vigil:audit' : 'vigil:detection',
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      };
      await this.store.indexes.insert(index).catch(async (error: unknown) => {
        // Another process created it between our check and insert: that is the outcome we wanted.
        if (!(await this.store.indexes.getByName(tenantId, name))) throw error;
      });
    }
    return tenant;
  }

  /** Every tenant, by id. */
  async list(): Promise<TenantRecord[]> {
    return (await this.store.tenants.list()).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The tenant's system index of this name; it exists for every tenant made through ensure(). */
  async systemIndex(tenantId: string, name: SystemIndexName): Promise<IndexRecord | null> {
    return this.store.indexes.getByName(tenantId, name);
  }
}
