import type { Clock } from '../core/index.js';
import type { Store } from '../store/index.js';

/** `GET /v1/info/query_capacity` (docs/compatibility.md): the published product's capacity report. */
export interface QueryCapacity {
  readonly this_month_used_query_capacity_gb: number;
  readonly this_month_provisioned_query_capacity_gb: number;
  readonly this_month_on_demand_query_capacity_gb: number;
  readonly number_of_days_this_month: number;
  readonly contract_provisioned_query_capacity_gb_per_day: number;
}

const bytesPerGb = 1e9;

/**
 * Counts the bytes each tenant's ad hoc queries scan, per UTC day, and reports the month's use
 * in the published product's capacity shape. Vigil provisions no capacity: nothing is
 * provisioned, so every byte used counts as on demand.
 */
export class QueryCapacityService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Adds a finished query's scanned bytes to the tenant's day. */
  async record(tenantId: string, bytesScanned: number): Promise<void> {
    if (!(bytesScanned > 0)) return;
    await this.store.queryUsage.add(tenantId, dayOf(this.clock.nowMs()), Math.round(bytesScanned));
  }

  /** The tenant's use this UTC month, in decimal gigabytes. */
  async capacity(tenantId: string): Promise<QueryCapacity> {
    const now = new Date(this.clock.nowMs());
    const year = now.getUTCFullYear();
    const month = now.getUTCMonth();
    const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    const first = dayOf(Date.UTC(year, month, 1));
    const last = dayOf(Date.UTC(year, month, days));
    const used = (await this.store.queryUsage.total(tenantId, first, last)) / bytesPerGb;
    return {
      this_month_used_query_capacity_gb: used,
      this_month_provisioned_query_capacity_gb: 0,
      this_month_on_demand_query_capacity_gb: used,
      number_of_days_this_month: days,
      contract_provisioned_query_capacity_gb_per_day: 0,
    };
  }
}

/** `YYYY-MM-DD` of an instant, in UTC. */
function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
