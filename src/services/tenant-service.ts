import { newId, type Clock } from '../core/index.js';
import type { IndexRecord, Store, TenantRecord } from '../store/index.js';
import { checkTenantId } from './names.js';

/** The system indexes every tenant has; they are never listed and their ids answer 404. */
export const systemIndexNames = ['_detections', '_audit'] as const;
export type SystemIndexName = (typeof systemIndexNames)[number];

/**
 * The name of the tenant the first server start creates. It is created with a UUID id (the
 * published SDK parses tenant ids as UUIDs) wherever it is first named, so `--tenant default`
 * and `tenant_id=default` keep working (docs/compatibility.md).
 */
export const defaultTenantName = 'default';

/** Creates tenants together with their system indexes, and finds them by id or by name. */
export class TenantService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * The id a tenant reference stands for: a tenant's id, else a tenant's name (the bootstrap
   * tenant is `default`), else the reference itself (a tenant that `ensure` would create under
   * that id). `default` names the bootstrap tenant even before it exists: it is created then.
   */
  async resolve(ref: string): Promise<string> {
    if (await this.store.tenants.get(ref)) return ref;
    const named = await this.store.tenants.getByName(ref);
    if (named) return named.id;
    return ref === defaultTenantName ? (await this.ensure(ref)).id : ref;
  }

  /**
   * Returns the tenant a reference (id or name) stands for, creating it and its system indexes on
   * first use: under the reference as id, except `default`, which gets a UUID id.
   */
  async ensure(ref: string): Promise<TenantRecord> {
    checkTenantId(ref);
    const now = this.clock.nowMs();
    const existing = (await this.store.tenants.get(ref)) ?? (await this.store.tenants.getByName(ref));
    const { tenant } = existing
      ? { tenant: existing }
      : await this.store.tenants.ensure(ref === defaultTenantName ? newId() : ref, now, ref).catch(async (error: unknown) => {
          // Another process created it meanwhile (by name, under another id): take that one.
          const raced = await this.store.tenants.getByName(ref);
          if (raced) return { tenant: raced };
          throw error;
        });
    const tenantId = tenant.id;
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
