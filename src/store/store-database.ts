import type { ColumnType } from 'kysely';
import type { EnabledState, EventSinkType, Severity } from '../domain/index.js';
import type { AlertStatus, AttemptOutcome, DeliveryStatus, QueryRecordStatus } from './records.js';

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
  /** What `tenant_id` may also say (0006): the id itself for tenants made by id, `default` for the bootstrap tenant. */
  name: ColumnType<string | null, string, string>;
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

/** Booleans are 0/1 integers, the one spelling both dialects share. */
export type BooleanColumn = ColumnType<number, number, number>;

export interface DetectionRulesTable {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  query_text: string;
  prepared_query_id: string;
  time_range_s: number;
  run_frequency_s: number;
  debounce: BooleanColumn;
  alert_per_row: BooleanColumn;
  dedup_window_s: number | null;
  enabled_state_override: EnabledState | null;
  enabled_state_synced: EnabledState | null;
  severity: Severity;
  /** JSON of the current-form template, or null. */
  alert_template: string | null;
  /** JSON array of strings. */
  tags: string;
  sync_key: string | null;
  detection_rule_sync_id: string | null;
  author_user_id: string | null;
  created_at: MillisColumn;
  updated_at: MillisColumn;
  last_alerted_at: NullableMillisColumn;
}

/** A rule's sinks, in order. The (tenant_id, sink_id) foreign key keeps sinks within the tenant. */
export interface DetectionRuleSinksTable {
  rule_id: string;
  tenant_id: string;
  sink_id: string;
  position: number;
}

export interface EventSinksTable {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  sink_type: EventSinkType;
  /** JSON object of the variant's public arguments. */
  configuration: string;
  sealed_secrets: string | null;
  chat_integration_id: string | null;
  created_at: MillisColumn;
  updated_at: MillisColumn;
}

export interface ChatIntegrationsTable {
  id: string;
  tenant_id: string;
  name: string;
  api_url: string | null;
  sealed_token: string;
  token_hint: string;
  created_at: MillisColumn;
}

export interface DetectionRuleStateTable {
  rule_id: string;
  tenant_id: string;
  cursor_ms: NullableMillisColumn;
  last_run_at: NullableMillisColumn;
  last_error: string | null;
  last_error_at: NullableMillisColumn;
  consecutive_failures: ColumnType<number, number | undefined, number>;
  gap_start_ms: NullableMillisColumn;
  gap_end_ms: NullableMillisColumn;
  skipped_windows: ColumnType<number | string, number | undefined, number>;
}

export interface DetectionDebounceTable {
  rule_id: string;
  identity: string;
  window_end_ms: MillisColumn;
}

export interface DetectionDedupTable {
  rule_id: string;
  dedup_key: string;
  sent_window_end_ms: MillisColumn;
}

export interface AlertsTable {
  id: string;
  tenant_id: string;
  rule_id: string;
  rule_name: string;
  severity: Severity;
  window_start_ms: MillisColumn;
  window_end_ms: MillisColumn;
  status: AlertStatus;
  dedup_key: string | null;
  /** JSON object: the alert as sinks receive it. */
  payload: string;
  created_at: MillisColumn;
  updated_at: MillisColumn;
}

export interface AlertDeliveriesTable {
  id: string;
  alert_id: string;
  tenant_id: string;
  sink_id: string;
  sink_type: EventSinkType;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: MillisColumn;
  queued_at: MillisColumn;
  lease_until: NullableMillisColumn;
  last_error: string | null;
  last_http_status: number | null;
  delivered_at: NullableMillisColumn;
  created_at: MillisColumn;
  updated_at: MillisColumn;
}

export interface DeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  alert_id: string;
  at: MillisColumn;
  outcome: AttemptOutcome;
  http_status: number | null;
  latency_ms: number;
  error: string | null;
}

export interface DetectionOutboxTable {
  id: string;
  tenant_id: string;
  at: MillisColumn;
  /** JSON object: the `_detections` event. */
  event: string;
}

/** A repository rules are synced from; `revision` counts applied syncs (migration 0005). */
export interface SyncSourcesTable {
  id: string;
  tenant_id: string;
  push_key: string;
  branch: string;
  revision: ColumnType<number | string, number | undefined, number>;
  last_commit_sha: string | null;
  last_commit_message: string | null;
  last_synced_at: NullableMillisColumn;
  created_at: MillisColumn;
  updated_at: MillisColumn;
}

/** A source's `event_sink_keys` map: one row per (key, sink), in order per key. */
export interface QueryUsageTable {
  tenant_id: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  bytes_scanned: ColumnType<number | string | bigint, number, number>;
}

export interface LookupTablesTable {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  /** JSON array of the header's column names. */
  columns: string;
  num_rows: number;
  size_bytes: MillisColumn;
  data_version: string;
  csv: string;
  created_at: MillisColumn;
  updated_at: MillisColumn;
}

export interface SyncSourceSinkKeysTable {
  source_id: string;
  tenant_id: string;
  sink_key: string;
  sink_id: string;
  position: number;
}

export interface LeasesTable {
  name: string;
  holder: string;
  until_ms: MillisColumn;
  acquired_at: MillisColumn;
}

export interface QueryRecordsTable {
  id: string;
  tenant_id: string;
  /** The server running the query. */
  owner: string;
  status: QueryRecordStatus;
  /** Columns and rows as the search module serializes them (JSON), or null before any. */
  result: string | null;
  bytes_scanned: MillisColumn;
  truncated: number;
  /** The failure as the search module serializes it (JSON), or null. */
  error: string | null;
  cancel_requested_at: NullableMillisColumn;
  created_at: MillisColumn;
  /** The owner's last write: its heartbeat while the query runs. */
  updated_at: MillisColumn;
  finished_at: NullableMillisColumn;
}

export interface StoreDatabase {
  tenants: TenantsTable;
  api_keys: ApiKeysTable;
  indexes: IndexesTable;
  audit_outbox: AuditOutboxTable;
  detection_rules: DetectionRulesTable;
  detection_rule_sinks: DetectionRuleSinksTable;
  event_sinks: EventSinksTable;
  chat_integrations: ChatIntegrationsTable;
  detection_rule_state: DetectionRuleStateTable;
  detection_debounce: DetectionDebounceTable;
  detection_dedup: DetectionDedupTable;
  alerts: AlertsTable;
  alert_deliveries: AlertDeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  detection_outbox: DetectionOutboxTable;
  sync_sources: SyncSourcesTable;
  sync_source_sink_keys: SyncSourceSinkKeysTable;
  query_usage: QueryUsageTable;
  lookup_tables: LookupTablesTable;
  ingest_receipts: IngestReceiptsTable;
  leases: LeasesTable;
  query_records: QueryRecordsTable;
}

export interface IngestReceiptsTable {
  tenant_id: string;
  index_id: string;
  ingest_id: string;
  state: 'writing' | 'done';
  /** JSON array of `[first, count]`, first a decimal string. */
  sequence_ranges: string;
  /** JSON object, once done. */
  summary: string | null;
  created_at: MillisColumn;
  updated_at: MillisColumn;
}
