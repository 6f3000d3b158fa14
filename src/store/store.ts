import type { ApiKeyRecord, AuditEntry, IndexKind, IndexRecord, Page, TenantRecord } from './records.js';

/**
 * The metadata store contract: one repository per aggregate. Adapters: sqlite/ (embedded) and,
 * later, postgres/ — both must pass the same contract suite (src/store/testing/store-contract.ts).
 * Every method that takes a tenant id only ever sees that tenant's rows.
 */
export interface Store {
  /** Applies pending versioned migrations. Idempotent. */
  migrate(): Promise<void>;
  readonly tenants: TenantRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly indexes: IndexRepository;
  readonly audit: AuditRepository;
  close(): Promise<void>;
}

export interface TenantRepository {
  /** Returns the tenant, creating it when missing. */
  ensure(id: string, atMs: number): Promise<{ tenant: TenantRecord; created: boolean }>;
  get(id: string): Promise<TenantRecord | null>;
  list(): Promise<TenantRecord[]>;
  /** Reserves `count` consecutive event sequence numbers of the tenant; returns the first. */
  reserveSequence(tenantId: string, count: number): Promise<bigint>;
}

export interface ApiKeyRepository {
  insert(key: ApiKeyRecord): Promise<void>;
  /** The live (not revoked) key with this hash, or null. */
  findActiveByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  get(id: string): Promise<ApiKeyRecord | null>;
  /** Every key, revoked ones included, oldest first. */
  list(): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when no such live key. */
  revoke(id: string, atMs: number): Promise<boolean>;
  /** Records use at most once a minute per key (cheap enough to call on every request). */
  touch(id: string, atMs: number): Promise<void>;
  /** True when at least one live key exists (first start creates the bootstrap key otherwise). */
  anyActive(): Promise<boolean>;
}

export interface IndexListOptions {
  readonly kind?: IndexKind;
  readonly pageSize: number;
  /** A token from a previous page; malformed tokens raise ValidationError on `pagination[page_token]`. */
  readonly pageToken?: string;
}

export interface IndexRepository {
  /** Inserts a new index; ConflictError when a live index of the tenant has the name. */
  insert(index: IndexRecord): Promise<void>;
  /** The live index, or null (deleted and other tenants' indexes are null too). */
  get(tenantId: string, id: string): Promise<IndexRecord | null>;
  getByName(tenantId: string, name: string): Promise<IndexRecord | null>;
  /**
   * The live index with this id whatever its tenant, or null. For `GET /v1/index/{id}`, whose
   * request names no tenant: the caller must check the key holds the index's tenant (else 404).
   */
  getAnyTenant(id: string): Promise<IndexRecord | null>;
  /** Live indexes ordered by name then id, keyset-paginated with opaque stable tokens. */
  list(tenantId: string, options: IndexListOptions): Promise<Page<IndexRecord>>;
  /** Every live index of every tenant (maintenance: retention sweeps). */
  listAllLive(): Promise<IndexRecord[]>;
  update(tenantId: string, id: string, changes: Partial<Pick<IndexRecord, 'description' | 'retentionDays' | 'timestampFields' | 'sourceType'>>, atMs: number): Promise<IndexRecord | null>;
  /** Soft-deletes; the name becomes free at once. False when no such live index. */
  markDeleted(tenantId: string, id: string, atMs: number): Promise<boolean>;
  /** Deleted indexes whose events still need purging. */
  listDeleted(): Promise<IndexRecord[]>;
  /** Removes a deleted index's row once its events are gone. */
  purge(id: string): Promise<void>;
}

/**
 * Audit trail outbox. Mutations are recorded here in the same process that makes them (CLI or
 * server); the server ships them to each tenant's `_audit` index, so the trail survives whichever
 * process holds the events engine.
 */
export interface AuditRepository {
  append(entry: AuditEntry): Promise<void>;
  /** Oldest entries not yet shipped to the engine. */
  listUnshipped(limit: number): Promise<AuditEntry[]>;
  markShipped(ids: readonly string[]): Promise<void>;
}
