import { Type, type Static } from '@sinclair/typebox';
import { previewLimits } from '../services/index.js';
import { fieldValueLimits, histogramLimits } from '../search/index.js';
import { AlertTemplateInput, NullableScalar, defaultedRuleFields, ruleFields } from './detection-schemas.js';

/**
 * JSON schemas of the console and discovery endpoints (docs/api.md): who a key is, index
 * statistics and fields, field values, histograms, rule preview, sink tests, API keys and index
 * settings. Vigil additions to the interface.
 */

const TenantId = Type.String({ minLength: 1, maxLength: 64, description: 'Required when the key holds several tenants' });
const Time = (description: string) => Type.String({ maxLength: 64, description });
const NullableString = (description?: string) => NullableScalar<string>('string', description ? { description } : {});

export const MeResponse = Type.Object({
  api_key: Type.Object({ id: Type.String(), name: Type.String(), prefix: Type.String({ description: 'The first characters of the secret' }), admin: Type.Boolean() }),
  tenants: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String({ description: 'The tenant’s name (its id unless it was made under a name, as `default` is); tenant_id may give either' }),
    }),
    {
      description: 'The tenants the key holds (every tenant for an admin key), by id',
    },
  ),
});

export const TenantScopeQuery = Type.Object({ tenant_id: Type.Optional(TenantId) }, { additionalProperties: false });
export type TenantScopeQuery = Static<typeof TenantScopeQuery>;

export const IndexStatsResponse = Type.Object({
  index_id: Type.String(),
  name: Type.String(),
  events: Type.Integer(),
  first_event_time: NullableString('RFC 3339 with nine fractional digits; null for an empty index'),
  last_event_time: NullableString(),
  bytes_on_disk: Type.Integer({ description: 'Estimated: each storage part’s size shared out by the indexes’ shares of its rows' }),
  events_without_time: Type.Integer({ description: 'Events stamped with their ingest time: no timestamp field held a time' }),
  retention_days: NullableScalar<number>('integer'),
});

export const IndexFieldsQuery = Type.Object(
  {
    tenant_id: Type.Optional(TenantId),
    start_time: Type.Optional(Time('RFC 3339; give both bounds or neither (all time)')),
    end_time: Type.Optional(Time('RFC 3339, exclusive')),
  },
  { additionalProperties: false },
);
export type IndexFieldsQuery = Static<typeof IndexFieldsQuery>;

export const IndexFieldsResponse = Type.Object({
  events: Type.Integer({ description: 'The index’s events over the days read' }),
  start_time: NullableString('The first whole UTC day read; null for all time'),
  end_time: NullableString('The end of the last whole UTC day read (exclusive); null for all time'),
  fields: Type.Array(
    Type.Object({
      path: Type.String(),
      types: Type.Array(Type.String(), { description: 'string, int64, float64, null' }),
      rows: Type.Integer({ description: 'Events holding the path' }),
    }),
    { description: 'Most common first, then by path' },
  ),
});

export const FieldValuesBody = Type.Object(
  {
    tenant_id: Type.Optional(TenantId),
    query: Type.String({ maxLength: 100_000 }),
    field: Type.String({ minLength: 1, maxLength: 1000, description: 'A column name as the field catalog lists it (no wildcards)' }),
    start_time: Time('RFC 3339, inclusive'),
    end_time: Time('RFC 3339, exclusive'),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: fieldValueLimits.maxLimit, description: `Default ${fieldValueLimits.defaultLimit}` })),
  },
  { additionalProperties: false },
);
export type FieldValuesBody = Static<typeof FieldValuesBody>;

const TableValue = Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'] });

export const FieldValuesResponse = Type.Object({
  field: Type.String(),
  events: Type.Integer({ description: 'The query’s events holding the field' }),
  values: Type.Array(Type.Object({ value: TableValue, count: Type.Integer() }), { description: 'Most frequent first, ties by value' }),
  other_count: Type.Integer({ description: 'events minus the listed counts' }),
});

export const HistogramBody = Type.Object(
  {
    tenant_id: Type.Optional(TenantId),
    query: Type.String({ maxLength: 100_000 }),
    start_time: Time('RFC 3339, inclusive'),
    end_time: Time('RFC 3339, exclusive'),
    max_buckets: Type.Optional(
      Type.Integer({ minimum: histogramLimits.minMaxBuckets, maximum: histogramLimits.maxMaxBuckets, description: `Default ${histogramLimits.defaultMaxBuckets}` }),
    ),
  },
  { additionalProperties: false },
);
export type HistogramBody = Static<typeof HistogramBody>;

export const HistogramStartResponse = Type.Object({
  qr_id: Type.String({ description: 'Poll query_progress with it; cancel_query stops it' }),
  bucket_s: Type.Integer(),
  start_time: Type.String({ description: 'The range counted: clamped, and narrowed to the events of the query’s scope' }),
  end_time: Type.String(),
});

export const PreviewBody = Type.Object(
  {
    tenant_id: Type.Optional(TenantId),
    start_time: Time('RFC 3339: windows ending after it'),
    end_time: Time('RFC 3339: windows ending at or before it (and before now)'),
    rule_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A stored rule of the tenant' })),
    rule: Type.Optional(
      Type.Object(
        {
          query_text: ruleFields.query_text,
          time_range_s: ruleFields.time_range_s,
          run_frequency_s: ruleFields.run_frequency_s,
          alert_per_row: defaultedRuleFields.alert_per_row,
          debounce: defaultedRuleFields.debounce,
          dedup_window_s: defaultedRuleFields.dedup_window_s,
          alert_template: Type.Optional(Type.Union([AlertTemplateInput, Type.Null()])),
        },
        { additionalProperties: false, description: 'Unsaved rule fields, checked as on create' },
      ),
    ),
    rule_yaml: Type.Optional(Type.String({ maxLength: 1_000_000, description: 'A rule file’s text' })),
    max_windows: Type.Optional(Type.Integer({ minimum: 1, maximum: previewLimits.maxListed, description: `Alerting windows listed at most; default ${previewLimits.maxListed}` })),
  },
  { additionalProperties: false },
);
export type PreviewBody = Static<typeof PreviewBody>;

export const PreviewResponse = Type.Object({
  windows_evaluated: Type.Integer(),
  windows_alerted: Type.Integer({ description: 'Windows that produced an alert (sent or suppressed)' }),
  windows: Type.Array(
    Type.Object({
      start_time: Type.String(),
      end_time: Type.String(),
      n_rows: Type.Integer({ description: 'Rows the query returned' }),
      debounced_rows: Type.Integer({ description: 'Rows an earlier overlapping window alerted' }),
      alerts: Type.Integer({ description: 'Alerts that would be sent' }),
      suppressed: Type.Integer({ description: 'Alerts dedup would suppress' }),
      column_ordering: Type.Array(Type.String()),
      rows: Type.Array(Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true }), { description: 'The rows the alerts carry, at most 100' }),
    }),
    { description: 'Newest first' },
  ),
  truncated: Type.Boolean({ description: 'More windows alerted than are listed' }),
});

export type PreviewResponseBody = Static<typeof PreviewResponse>;

export const SinkTestResponse = Type.Object({
  delivered: Type.Boolean(),
  outcome: Type.Unsafe<'delivered' | 'retryable' | 'permanent'>({ type: 'string', enum: ['delivered', 'retryable', 'permanent'] }),
  http_status: NullableScalar<number>('integer', { description: 'Null when no HTTP answer came' }),
  latency_ms: Type.Integer(),
  error: NullableString(),
});

export const ApiKeyObject = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  admin: Type.Boolean({ description: 'Holds every tenant' }),
  tenant_ids: Type.Array(Type.String(), { description: 'Empty for an admin key' }),
  created_at: Type.String(),
  last_used_at: NullableString(),
  revoked_at: NullableString(),
});

export type ApiKeyObject = Static<typeof ApiKeyObject>;

export const ApiKeyListResponse = Type.Object({ data: Type.Object({ api_keys: Type.Array(ApiKeyObject) }), pagination: Type.Object({ next_page_token: Type.Null() }) });
export const ApiKeyResponse = Type.Object({ api_key: ApiKeyObject });
export const ApiKeyCreateResponse = Type.Object({ api_key: ApiKeyObject, key: Type.String({ description: 'The secret, shown this once' }) });

export const ApiKeyCreateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    tenant_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 1000 })),
    admin: Type.Optional(Type.Boolean({ description: 'true: every tenant; not with tenant_ids' })),
  },
  { additionalProperties: false },
);
export type ApiKeyCreateBody = Static<typeof ApiKeyCreateBody>;

export const IndexUpdateBody = Type.Object(
  {
    tenant_id: Type.Optional(TenantId),
    retention_days: Type.Optional(NullableScalar<number>('integer', { description: 'Days events are kept, 1 to 36500; null keeps them forever' })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    timestamp_fields: Type.Optional(Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { minItems: 1, maxItems: 32 }), Type.Null()])),
    source_type: Type.Optional(NullableScalar<string>('string', { maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type IndexUpdateBody = Static<typeof IndexUpdateBody>;
