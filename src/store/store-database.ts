import type { ColumnType } from 'kysely';

/**
 * The metadata store's tables as Kysely sees them. Column names are snake_case SQL; the
 * repositories map rows to the camelCase records of records.ts.
 *
 * Times are epoch milliseconds in BIGINT columns. SQLite hands them back as numbers, PostgreSQL's
 * `pg` driver as strings (it never narrows a BIGINT), so the read side admits both and the
 * repositories convert with `Number(...)`: epoch milliseconds stay far below 2^53.
 */
export type MillisColumn = ColumnType<number | string, number, number>;
export type NullableMillisColumn = ColumnType<number | string | null, number | null, number | null>;

export interface TenantsTable {
  id: string;
  created_at: MillisColumn;
  /** The next unreserved event sequence number. Read through a text cast: it may pass 2^53. */
  next_seq: ColumnType<number | string | bigint, number | undefined, number>;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  prefix: string;
  key_hash: string;
  /** JSON array of tenant ids, `["*"]` for admin keys. */
  tenants: string;
  created_at: MillisColumn;
  revoked_at: NullableMillisColumn;
  last_used_at: NullableMillisColumn;
}

export interface IndexesTable {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  kind: 'user' | 'system';
  retention_days: number | null;
  /** JSON array of field names, or null for the service defaults. */
  timestamp_fields: string | null;
  source_type: string | null;
  created_at: MillisColumn;
  updated_at: MillisColumn;
  deleted_at: NullableMillisColumn;
}

export interface AuditOutboxTable {
  id: string;
  tenant_id: string;
  at: MillisColumn;
  actor: string;
  action: string;
  target: string | null;
  /** JSON object. */
  details: string;
  shipped_at: NullableMillisColumn;
}

export interface StoreDatabase {
  tenants: TenantsTable;
  api_keys: ApiKeysTable;
  indexes: IndexesTable;
  audit_outbox: AuditOutboxTable;
}
