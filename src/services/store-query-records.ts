import type { SharedQueryRecord, SharedQueryRecords } from '../search/index.js';
import type { Store } from '../store/index.js';

/** The search service's shared query records over the store, this process named as owner of the queries it runs. */
export class StoreQueryRecords implements SharedQueryRecords {
  constructor(
    private readonly store: Store,
    private readonly owner: string,
  ) {}

  create(id: string, tenant: string, atMs: number): Promise<void> {
    return this.store.queries.insert({
      id,
      tenantId: tenant,
      owner: this.owner,
      status: 'running',
      result: null,
      bytesScanned: 0,
      truncated: false,
      error: null,
      cancelRequestedAt: null,
      createdAt: atMs,
      updatedAt: atMs,
      finishedAt: null,
    });
  }

  write(id: string, progress: Omit<SharedQueryRecord, 'id' | 'tenant' | 'updatedAtMs'>, atMs: number): Promise<void> {
    return this.store.queries.update(id, { ...progress, atMs });
  }

  async read(id: string): Promise<SharedQueryRecord | null> {
    const record = await this.store.queries.get(id);
    if (record === null) return null;
    const { tenantId, updatedAt, status, result, bytesScanned, truncated, error } = record;
    return { id, tenant: tenantId, status, result, bytesScanned, truncated, error, updatedAtMs: updatedAt };
  }

  heartbeat(ids: readonly string[], atMs: number): Promise<void> {
    return this.store.queries.heartbeat(ids, atMs);
  }

  requestCancel(id: string, atMs: number): Promise<void> {
    return this.store.queries.requestCancel(id, atMs);
  }

  cancelRequested(ids: readonly string[]): Promise<string[]> {
    return this.store.queries.cancelRequested(ids);
  }

  async deleteExpired(finishedBeforeMs: number, silentBeforeMs: number): Promise<void> {
    await this.store.queries.deleteExpired(finishedBeforeMs, silentBeforeMs);
  }
}
