import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { maxRulePageSize, maxSinkPageSize } from '../services/index.js';
import { enabledStates, eventSinkTypes, severities, severityInputs } from '../detections/index.js';

/**
 * JSON schemas of detection rules and event sinks (docs/interface.md 2.3-2.7, 4.2, 4.3). The body schemas
 * check shapes and types; the services check meanings (minute granularity, the query, templates,
 * URLs, tenancy of referenced objects) and name the field at fault.
 */

/** A string enum: one `enum` keyword, so a bad value is reported with the allowed values. */
function StringEnum<T extends string>(values: readonly T[], options: Record<string, unknown> = {}) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
}

/**
 * A nullable object. Objects only: the API validates with type coercion on, and in a union a
 * failed branch may coerce (`0` or `""` to null, null to `""`), so nullable scalars use
 * NullableScalar, whose type list Ajv never coerces when one of its types matches.
 */
function Nullable<T extends TSchema>(schema: T, options: Record<string, unknown> = {}) {
  return Type.Union([schema, Type.Null()], options);
}

/** A nullable string, integer, boolean or string enum, as one `type: [t, 'null']` schema. */
export function NullableScalar<T>(type: 'string' | 'integer' | 'boolean', options: Record<string, unknown> = {}) {
  const values = options.enum as unknown[] | undefined;
  return Type.Unsafe<T | null>({ ...options, type: [type, 'null'], ...(values ? { enum: [...values, null] } : {}) });
}

const stateDescription = 'Active runs and alerts, Staging runs without alerting, Paused does not run';
const EnabledState = StringEnum(enabledStates, { description: stateDescription });
const NullableEnabledState = (description: string) => NullableScalar<(typeof enabledStates)[number]>('string', { enum: enabledStates, description });
const SeverityInput = StringEnum(severityInputs, { description: 'OCSF severity; Information is accepted for Informational' });
const Severity = StringEnum(severities);

const deprecatedPair = (what: string) => Type.Array(Type.String(), { minItems: 2, maxItems: 2, description: `Deprecated ${what} form: [label, value]` });

export const AlertTemplateInput = Type.Object(
  {
    info: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Object(
            {
              label: Type.String(),
              value: Type.String({ description: '{{ expr }} placeholders hold query-language scalar expressions over @alert' }),
              use_for_dedup: Type.Optional(Type.Boolean({ description: 'Default false' })),
            },
            { additionalProperties: false },
          ),
          deprecatedPair('info'),
        ]),
      ),
    ),
    actions: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Object({ label: Type.String(), value: Type.String({ description: 'A URL (rendered as text when it is not one)' }) }, { additionalProperties: false }),
          deprecatedPair('action'),
        ]),
      ),
    ),
  },
  { additionalProperties: false, description: 'Current form, or the deprecated pair arrays (returned in the current form)' },
);

const AlertTemplateObject = Type.Object({
  info: Type.Array(Type.Object({ label: Type.String(), value: Type.String(), use_for_dedup: Type.Boolean() })),
  actions: Type.Array(Type.Object({ label: Type.String(), value: Type.String() })),
});

// Numbers rather than integers: the service's message (whole minutes, from 60) is the useful one.
export const ruleFields = {
  name: Type.String({ maxLength: 256 }),
  description: Type.String({ maxLength: 10_000 }),
  time_range_s: Type.Number({ description: 'Lookback in seconds: whole minutes, 60 to 2592000' }),
  run_frequency_s: Type.Number({ description: 'Seconds between runs: whole minutes, at least 60, at most time_range_s' }),
  severity: SeverityInput,
  query_text: Type.String({ maxLength: 100_000 }),
  event_sink_ids: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 1000, description: 'Sinks of the same tenant; a repeated id counts once' }),
};

// The fields a create may leave to their defaults, and so optional in both create and update.
export const defaultedRuleFields = {
  alert_per_row: Type.Optional(Type.Boolean({ description: 'Default false' })),
  debounce: Type.Optional(Type.Boolean({ description: 'Default true' })),
  dedup_window_s: Type.Optional(NullableScalar<number>('integer', { minimum: 0, maximum: 4_294_967_295, description: 'Null (default): the run frequency' })),
  tags: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })),
  sync_key: Type.Optional(NullableScalar<string>('string', { maxLength: 512 })),
  alert_template: Type.Optional(Nullable(AlertTemplateInput)),
};

const TenantIdField = Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'An id or a name (default); required unless the key holds one tenant' }));

export const DetectionRuleCreateBody = Type.Object(
  {
    tenant_id: TenantIdField,
    name: ruleFields.name,
    description: ruleFields.description,
    time_range_s: ruleFields.time_range_s,
    run_frequency_s: ruleFields.run_frequency_s,
    enabled_state_override: EnabledState,
    severity: ruleFields.severity,
    query_text: ruleFields.query_text,
    event_sink_ids: ruleFields.event_sink_ids,
    ...defaultedRuleFields,
  },
  { additionalProperties: false },
);
export type DetectionRuleCreateBody = Static<typeof DetectionRuleCreateBody>;

export const DetectionRuleUpdateBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200, description: 'Must equal the id in the path' }),
    name: Type.Optional(ruleFields.name),
    description: Type.Optional(ruleFields.description),
    time_range_s: Type.Optional(ruleFields.time_range_s),
    run_frequency_s: Type.Optional(ruleFields.run_frequency_s),
    enabled_state_override: Type.Optional(NullableEnabledState('Null returns a synced rule to enabled_state_synced')),
    severity: Type.Optional(ruleFields.severity),
    query_text: Type.Optional(ruleFields.query_text),
    event_sink_ids: Type.Optional(ruleFields.event_sink_ids),
    ...defaultedRuleFields,
  },
  { additionalProperties: false },
);
export type DetectionRuleUpdateBody = Static<typeof DetectionRuleUpdateBody>;

const Timestamp = Type.String({ description: 'UTC, YYYY-MM-DDThh:mm:ssZ' });

export const DetectionRuleObject = Type.Object(
  {
    id: Type.String(),
    tenant_id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    query_text: Type.String(),
    time_range_s: Type.Integer(),
    run_frequency_s: Type.Integer(),
    debounce: Type.Boolean(),
    alert_per_row: Type.Boolean(),
    dedup_window_s: NullableScalar<number>('integer'),
    enabled_state_override: Type.Optional(NullableEnabledState('Get, list and update responses')),
    enabled_state_synced: Type.Optional(NullableEnabledState('Get, list and update responses')),
    enabled: Type.Optional(Type.Boolean({ description: 'True when the rule runs (Active or Staging)' })),
    enabled_override: Type.Optional(NullableScalar<boolean>('boolean', { description: 'Create response only: null (a new rule is not synced)' })),
    severity: Severity,
    alert_template: Nullable(AlertTemplateObject),
    tags: Type.Array(Type.String()),
    sync_key: NullableScalar<string>('string'),
    detection_rule_sync_id: NullableScalar<string>('string', { description: 'Set for rules synced from a source repository' }),
    prepared_query_id: Type.String({ description: 'Changes whenever query_text changes' }),
    author_user_id: NullableScalar<string>('string', { description: 'Name of the API key that created the rule' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    last_alerted_at: NullableScalar<string>('string', { description: 'UTC, YYYY-MM-DDThh:mm:ssZ; null until the rule alerts' }),
    event_sink_ids: Type.Optional(Type.Array(Type.String(), { description: 'Create, get and update responses; absent from list items' })),
  },
  { $id: 'DetectionRule' },
);
export type DetectionRuleObject = Static<typeof DetectionRuleObject>;

const listQuery = (max: number) =>
  Type.Object(
    {
      tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Required unless the key holds one tenant (or the JSON body gives it)' })),
      // No schema default: it would be filled in before the handler and win over a JSON body's page_size (listRequestOf applies 50).
      'pagination[page_size]': Type.Optional(Type.Integer({ minimum: 1, maximum: max, description: '50 when neither the query nor a JSON body gives it' })),
      'pagination[page_token]': Type.Optional(Type.String({ maxLength: 2000 })),
    },
    { additionalProperties: false },
  );

export const DetectionRuleListQuery = listQuery(maxRulePageSize);
export type DetectionRuleListQuery = Static<typeof DetectionRuleListQuery>;
export const EventSinkListQuery = listQuery(maxSinkPageSize);
export type EventSinkListQuery = Static<typeof EventSinkListQuery>;

const NextPage = Type.Object({ next_page_token: NullableScalar<string>('string') });

export const DetectionRuleListResponse = Type.Object({ data: Type.Object({ detection_rules: Type.Array(Type.Ref(DetectionRuleObject)) }), pagination: NextPage });
export const DetectionRuleResponse = Type.Object({ detection_rule: Type.Ref(DetectionRuleObject) });
export const DeletedResponse = Type.Object({ id: Type.String(), tenant_id: Type.String() });

const ChatArgs = Type.Object(
  {
    channel_id: Type.Optional(Type.String({ maxLength: 200 })),
    channel: Type.Optional(Type.String({ maxLength: 200, description: 'Deprecated: a channel name instead of channel_id' })),
    chat_integration_id: Type.Optional(Type.String({ maxLength: 200, description: 'Required on create: an integration of the tenant (vigil integrations chat add)' })),
  },
  { additionalProperties: false },
);
const WebhookArgs = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 2048, description: 'http or https; private, loopback and metadata addresses need allow_private_destinations' })),
    headers: Type.Optional(Nullable(Type.Record(Type.String(), Type.String()), { description: 'Extra headers; values are secrets, never returned' })),
    signing_secret: Type.Optional(NullableScalar<string>('string', { maxLength: 512, description: 'Signs deliveries (X-Vigil-Signature); never returned' })),
  },
  { additionalProperties: false },
);
const PagerArgs = Type.Object(
  { integration_key: Type.Optional(Type.String({ maxLength: 128, description: 'Events API v2 integration key; returned masked' })) },
  { additionalProperties: false },
);

export const EventSinkArgs = Type.Object(
  { Chat: Type.Optional(ChatArgs), Webhook: Type.Optional(WebhookArgs), Pager: Type.Optional(PagerArgs) },
  {
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    description: 'Exactly one variant. On update, a variant equal to the current one keeps the arguments it does not give',
  },
);

export const EventSinkCreateBody = Type.Object(
  {
    tenant_id: TenantIdField,
    name: Type.String({ maxLength: 256 }),
    description: Type.String({ maxLength: 10_000 }),
    event_sink_args: EventSinkArgs,
  },
  { additionalProperties: false },
);
export type EventSinkCreateBody = Static<typeof EventSinkCreateBody>;

export const EventSinkUpdateBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200, description: 'Must equal the id in the path' }),
    name: Type.Optional(Type.String({ maxLength: 256 })),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    event_sink_args: Type.Optional(EventSinkArgs),
  },
  { additionalProperties: false },
);
export type EventSinkUpdateBody = Static<typeof EventSinkUpdateBody>;

export const EventSinkObject = Type.Object(
  {
    id: Type.String(),
    tenant_id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    event_sink_type: StringEnum([...eventSinkTypes, 'Slack', 'PagerDuty'], {
      description: 'Slack and PagerDuty (for Chat and Pager) when the server answers with published names (api_compat: scanner)',
    }),
    configuration: Type.Object(
      {
        Chat: Type.Optional(Type.Object({ channel_id: Type.Optional(Type.String()), channel: Type.Optional(Type.String()), chat_integration_id: Type.String() })),
        Slack: Type.Optional(
          Type.Object(
            { channel_id: Type.String(), channel_name: Type.String({ description: 'The channel name given, else its id' }), slack_integration_id: Type.String() },
            { description: 'api_compat: scanner' },
          ),
        ),
        PagerDuty: Type.Optional(Type.Object({ integration_key: Type.String({ description: 'Masked' }) }, { description: 'api_compat: scanner' })),
        Webhook: Type.Optional(
          Type.Object({
            url: Type.String(),
            header_names: Type.Array(Type.String(), { description: 'Configured headers (their values are secrets)' }),
            has_signing_secret: Type.Boolean(),
          }),
        ),
        Pager: Type.Optional(Type.Object({ integration_key: Type.String({ description: 'Masked: at most the last four characters' }) })),
      },
      { description: 'Keyed by the variant name; secrets are never returned' },
    ),
    integration_id: Type.Optional(Type.String({ description: 'api_compat: scanner: the chat integration of a Slack sink' })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'EventSink' },
);
export type EventSinkObject = Static<typeof EventSinkObject>;

export const EventSinkResponse = Type.Object({ event_sink: Type.Ref(EventSinkObject) });
export const EventSinkListResponse = Type.Object({ data: Type.Object({ event_sinks: Type.Array(Type.Ref(EventSinkObject)) }), pagination: NextPage });
