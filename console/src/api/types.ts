/** The shapes of the `/v1` API the console reads (README "HTTP API", docs/api.md). */

export interface Tenant {
  readonly id: string;
  readonly name: string;
}

export interface Me {
  readonly api_key: { readonly id: string; readonly name: string; readonly admin: boolean };
  readonly tenants: readonly Tenant[];
}

export interface IndexObject {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly retention_days: number | null;
  readonly timestamp_fields?: readonly string[];
  readonly source_type?: string;
  readonly created_at?: string;
  readonly updated_at?: string;
}

export interface IndexStats {
  readonly index_id: string;
  readonly name: string;
  readonly events: number;
  readonly first_event_time: string | null;
  readonly last_event_time: string | null;
  readonly bytes_on_disk: number;
  readonly events_without_time: number;
  readonly retention_days: number | null;
}

export interface FieldInfo {
  readonly path: string;
  readonly types: readonly string[];
  readonly rows: number;
}

export interface IndexFields {
  readonly events: number;
  readonly fields: readonly FieldInfo[];
}

export interface FieldValues {
  readonly field: string;
  readonly events: number;
  readonly values: readonly { readonly value: unknown; readonly count: number }[];
  readonly other_count: number;
}

/** An ad hoc query request (docs/interface.md 2.1). */
export interface QueryRequest {
  readonly query: string;
  readonly start_time: string;
  readonly end_time: string;
  readonly max_rows?: number;
  readonly scan_back_to_front?: boolean;
  readonly tenant_id?: string;
}

export type Row = Readonly<Record<string, unknown>>;

export interface QueryProgress {
  readonly is_completed: boolean;
  readonly results: { readonly column_ordering: readonly string[]; readonly rows: readonly Row[] };
  readonly metadata: { readonly n_bytes_scanned: number; readonly truncated?: boolean; readonly cancelled?: boolean };
}

/** One problem of a query or rule file, 1-based line and column, end exclusive. */
export interface TextDiagnostic {
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly end_line: number;
  readonly end_column: number;
  readonly hint?: string;
  readonly severity?: 'error' | 'warning';
  readonly field?: string;
}

export type RuleState = 'Active' | 'Staging' | 'Paused';

export interface DetectionRule {
  readonly id: string;
  readonly tenant_id: string;
  readonly name: string;
  readonly description: string;
  readonly query_text: string;
  readonly time_range_s: number;
  readonly run_frequency_s: number;
  readonly debounce: boolean;
  readonly alert_per_row: boolean;
  readonly dedup_window_s?: number | null;
  readonly enabled_state_override: RuleState | null;
  readonly enabled_state_synced: RuleState | null;
  readonly severity: string;
  readonly alert_template: unknown;
  readonly tags: readonly string[];
  readonly sync_key: string | null;
  readonly detection_rule_sync_id: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly last_alerted_at: string | null;
  readonly event_sink_ids?: readonly string[];
}

export interface RuleFileValidation {
  readonly is_valid: boolean;
  readonly error: string | null;
  readonly warning: string | null;
  readonly diagnostics: readonly TextDiagnostic[];
}

export interface RuleTestResult {
  readonly name: string;
  readonly status: string;
  readonly expected_detection_result: boolean;
  readonly detection_result: boolean;
  readonly window?: unknown;
  readonly column_ordering?: readonly string[];
  readonly rows?: readonly Row[];
  readonly row_count?: number;
}

export interface RuleTestRun {
  readonly status: 'Passed' | 'TestsFailed';
  /** Each test in the file, in order, with what it expected and what ran (`results` is the published CLI's name-to-outcome map). */
  readonly tests: readonly RuleTestResult[];
}

export interface PreviewWindow {
  readonly start_time: string;
  readonly end_time: string;
  readonly n_rows: number;
  readonly rows: readonly Row[];
  readonly alerts: number;
}

export interface RulePreview {
  readonly windows_evaluated: number;
  readonly windows_alerted: number;
  readonly windows: readonly PreviewWindow[];
  readonly truncated: boolean;
}

export interface DeliveryAttempt {
  readonly at: string;
  readonly outcome?: string;
  readonly status?: string;
  readonly http_status: number | null;
  readonly latency_ms: number | null;
  readonly error: string | null;
}

export interface AlertDelivery {
  readonly event_sink_id: string;
  readonly event_sink_type?: string;
  readonly status: string;
  readonly attempt_count?: number;
  readonly next_attempt_at?: string | null;
  readonly last_http_status?: number | null;
  readonly last_error?: string | null;
  readonly attempts?: readonly DeliveryAttempt[];
}

export interface Alert {
  readonly id: string;
  readonly detection_rule_id: string;
  readonly name: string;
  readonly severity: string;
  readonly status: string;
  readonly detected_in_time_range?: { readonly start_time: string; readonly end_time: string } | unknown;
  readonly timestamp: string;
  readonly info?: unknown;
  readonly deliveries: readonly AlertDelivery[];
  readonly results_table?: { readonly column_ordering?: readonly string[]; readonly rows?: readonly Row[] } | unknown;
}

export type SinkArgs =
  | { readonly Webhook: { readonly url: string; readonly headers?: Record<string, string>; readonly signing_secret?: string } }
  | { readonly Pager: { readonly integration_key: string } }
  | { readonly Chat: { readonly channel_id: string; readonly chat_integration_id: string } };

export interface EventSink {
  readonly id: string;
  readonly tenant_id: string;
  readonly name: string;
  readonly description: string;
  readonly event_sink_type: string;
  readonly configuration: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface SinkTestResult {
  readonly delivered: boolean;
  readonly http_status: number | null;
  readonly latency_ms: number;
  readonly error: string | null;
}

export interface ApiKey {
  readonly id: string;
  readonly name: string;
  readonly admin: boolean;
  readonly tenant_ids?: readonly string[];
  readonly created_at?: string;
  readonly revoked_at?: string | null;
  readonly last_used_at?: string | null;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextPageToken: string | null;
}
