import { Type, type Static } from '@sinclair/typebox';
import { maxAlertPageSize } from '../services/index.js';

/** JSON schemas of alerts (`GET /v1/alert`, `GET /v1/alert/{id}`, `POST /v1/alert/{id}/resend`): a Vigil addition to the interface. */

const alertStatuses = ['pending', 'delivered', 'failed', 'suppressed', 'no_sinks'] as const;
const Status = Type.Unsafe<(typeof alertStatuses)[number]>({
  type: 'string',
  enum: [...alertStatuses],
  description: 'pending: a delivery may still be tried; delivered: every sink took it; failed: some sink gave up; suppressed: by dedup, never sent; no_sinks: the rule had no sink',
});
const NullableString = (description?: string) => Type.Unsafe<string | null>({ type: ['string', 'null'], ...(description ? { description } : {}) });
const NullableInteger = (description?: string) => Type.Unsafe<number | null>({ type: ['integer', 'null'], ...(description ? { description } : {}) });
const AnyObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });
const Item = Type.Object({ label: Type.String(), value: Type.String() });

export const AttemptObject = Type.Object({
  at: Type.String({ description: 'RFC 3339 with milliseconds' }),
  outcome: Type.Unsafe<'delivered' | 'retryable' | 'permanent'>({ type: 'string', enum: ['delivered', 'retryable', 'permanent'] }),
  http_status: NullableInteger('Null when no HTTP answer came (network error, time-out, refused destination)'),
  latency_ms: Type.Integer(),
  error: NullableString(),
});

export const DeliveryObject = Type.Object({
  id: Type.String(),
  event_sink_id: Type.String(),
  event_sink_type: Type.String(),
  status: Type.Unsafe<'pending' | 'delivered' | 'failed'>({ type: 'string', enum: ['pending', 'delivered', 'failed'] }),
  attempt_count: Type.Integer(),
  next_attempt_at: NullableString('When a pending delivery is tried next (RFC 3339 with milliseconds)'),
  delivered_at: NullableString(),
  last_http_status: NullableInteger(),
  last_error: NullableString(),
  attempts: Type.Optional(Type.Array(AttemptObject, { description: 'Every attempt, oldest first (GET /v1/alert/{id} and resend only)' })),
});

export const AlertObject = Type.Object(
  {
    id: Type.String({ description: 'The alert id, also the id of its detection event and the X-Vigil-Alert-Id header' }),
    tenant_id: Type.String(),
    detection_rule_id: Type.String(),
    name: Type.String({ description: 'The rule name when the alert fired' }),
    severity: Type.String(),
    severity_id: Type.Integer(),
    status: Status,
    detected_in_time_range: Type.Object({ start: Type.String(), end: Type.String() }),
    timestamp: Type.String({ description: 'When the detection fired, RFC 3339 with nanoseconds' }),
    dedup_key: NullableString('Hash of the rule id and the rendered use_for_dedup values'),
    tags: Type.Array(Type.String()),
    info: Type.Array(Item, { description: 'The rendered template info items' }),
    actions: Type.Array(Item),
    results_table: Type.Optional(
      Type.Object({ columns: Type.Array(Type.String()), rows: Type.Array(AnyObject), total_row_count: Type.Integer() }, { description: 'GET /v1/alert/{id} and resend only' }),
    ),
    created_at: Type.String(),
    updated_at: Type.String(),
    deliveries: Type.Array(DeliveryObject),
  },
  { $id: 'Alert' },
);
export type AlertObject = Static<typeof AlertObject>;

export const AlertListQuery = Type.Object(
  {
    tenant_id: Type.String({ minLength: 1, maxLength: 64 }),
    detection_rule_id: Type.Optional(Type.String({ maxLength: 200 })),
    status: Type.Optional(Status),
    'pagination[page_size]': Type.Optional(Type.Integer({ minimum: 1, maximum: maxAlertPageSize, default: 50 })),
    'pagination[page_token]': Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type AlertListQuery = Static<typeof AlertListQuery>;

export const AlertListResponse = Type.Object({
  data: Type.Object({ alerts: Type.Array(Type.Ref(AlertObject)) }),
  pagination: Type.Object({ next_page_token: NullableString() }),
});
export const AlertResponse = Type.Object({ alert: Type.Ref(AlertObject) });
