/** Rows of the metadata store, as the rest of the service sees them. Times are epoch ms. */

export interface TenantRecord {
  readonly id: string;
  readonly createdAt: number;
}

/** An API key. The secret itself is never stored: only its SHA-256 hex digest. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly name: string;
  /** The first characters of the secret (`vgl_ab12…`), shown in listings so a key can be recognised. */
  readonly prefix: string;
  readonly keyHash: string;
  /** Tenants this key may act on; `['*']` means every tenant (admin keys). */
  readonly tenants: readonly string[];
  readonly createdAt: number;
  readonly revokedAt: number | null;
  readonly lastUsedAt: number | null;
}

export type IndexKind = 'user' | 'system';

export interface IndexRecord {
  readonly id: string;
  readonly tenantId: string;
  /** Unique per tenant among live indexes; `@index` in queries. */
  readonly name: string;
  readonly description: string;
  /** `system` for `_detections` and `_audit`: never listed, their ids answer 404. */
  readonly kind: IndexKind;
  /** Days events are kept; null keeps them forever. */
  readonly retentionDays: number | null;
  /** Fields tried for the event time, in order; null means the service defaults. */
  readonly timestampFields: readonly string[] | null;
  /** Default `@svc.source_type` of events ingested without one; null means `custom:generic`. */
  readonly sourceType: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Set when deleted; the events are purged in the background, then the row is removed. */
  readonly deletedAt: number | null;
}

export interface AuditEntry {
  readonly id: string;
  readonly tenantId: string;
  readonly at: number;
  /** Who: `key:<api key id>`, `cli`, or `system`. */
  readonly actor: string;
  /** What, as `<resource>.<verb>`: `index.create`, `api_key.revoke`, `ingest`. */
  readonly action: string;
  /** The object acted on (an id or name), or null. */
  readonly target: string | null;
  /** Extra facts; never secrets. */
  readonly details: Readonly<Record<string, unknown>>;
}

/** A page of a keyset-paginated listing. */
export interface Page<T> {
  readonly items: T[];
  /** Opaque token for the next page, or null when this is the last one. */
  readonly nextPageToken: string | null;
}
