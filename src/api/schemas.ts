import { Type, type Static } from '@sinclair/typebox';
import { maxIndexPageSize } from '../services/index.js';
import { adhocLimits } from '../search/index.js';

/** JSON schemas of the HTTP interface; routes validate with them and OpenAPI is generated from them. */

export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    diagnostics: Type.Optional(
      Type.Array(
        Type.Object({
          message: Type.String(),
          line: Type.Integer(),
          column: Type.Integer(),
          end_line: Type.Integer(),
          end_column: Type.Integer(),
          hint: Type.Optional(Type.String()),
        }),
        { description: 'Query errors: every problem found, with its position (1-based line and column)' },
      ),
    ),
  },
  { $id: 'Error', description: 'Every 4xx/5xx answer' },
);

export const IndexObject = Type.Object(
  {
    id: Type.String({ description: 'Used as @index_id in queries' }),
    name: Type.String({ description: 'Used as @index in queries' }),
    description: Type.String(),
    retention_days: Type.Union([Type.Integer(), Type.Null()], { description: 'Days events are kept; null keeps them forever' }),
    timestamp_fields: Type.Array(Type.String(), { description: 'Fields tried for the event time, in order' }),
    source_type: Type.String({ description: '@svc.source_type of events ingested without one' }),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Index' },
);
export type IndexObject = Static<typeof IndexObject>;

export const TenantQuery = Type.Object({ tenant_id: Type.String({ minLength: 1, maxLength: 64 }) });

/** A query string that may only narrow the tenants a request looks in. */
export const TenantOnlyQuery = Type.Object(
  { tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Look in this tenant only (by default every tenant the key holds)' })) },
  { additionalProperties: false },
);

export const IndexListQuery = Type.Object(
  {
    tenant_id: Type.String({ minLength: 1, maxLength: 64 }),
    'pagination[page_size]': Type.Optional(Type.Integer({ minimum: 1, maximum: maxIndexPageSize, default: 100 })),
    'pagination[page_token]': Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type IndexListQuery = Static<typeof IndexListQuery>;

export const IndexListResponse = Type.Object({
  data: Type.Object({ indexes: Type.Array(Type.Ref(IndexObject)) }),
  pagination: Type.Object({ next_page_token: Type.Union([Type.String(), Type.Null()]) }),
});

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export type IdParams = Static<typeof IdParams>;

export const IngestQuery = Type.Object(
  {
    tenant_id: Type.String({ minLength: 1, maxLength: 64 }),
    index: Type.String({ minLength: 1, maxLength: 200, description: 'Index name or id' }),
    source_type: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: '@svc.source_type of these events' })),
    create_index: Type.Optional(Type.Boolean({ default: false, description: 'Create the index when it does not exist' })),
    format: Type.Optional(
      Type.Union([Type.Literal('ndjson'), Type.Literal('auto'), Type.Literal('text')], {
        default: 'ndjson',
        description: 'auto also takes JSON arrays, CloudTrail Records files and plain text lines; text reads every line as {"message": line}',
      }),
    ),
    ingest_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Makes the request safe to repeat: a repeat of a finished ingestion writes nothing and answers as it did' }),
    ),
    timestamp_field: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Field tried first for the event time' })),
  },
  { additionalProperties: false },
);
export type IngestQuery = Static<typeof IngestQuery>;

export const IngestResponse = Type.Object({
  ingested: Type.Integer(),
  rejected: Type.Integer(),
  events_without_time: Type.Integer({ description: 'Ingested events stamped with the ingest time: none of the timestamp fields gave a time' }),
  errors: Type.Array(Type.Object({ line: Type.Integer(), error: Type.String() }), { description: 'The first 100 rejected lines' }),
  format: Type.Union([Type.Literal('ndjson'), Type.Literal('cloudtrail'), Type.Literal('json-array'), Type.Literal('json-document'), Type.Literal('text')], {
    description: 'The reader that was used',
  }),
  gzip: Type.Boolean({ description: 'Whether the body was gzip' }),
  bytes: Type.Integer({ description: 'Input bytes read, counted after decompression (what the size limit counts)' }),
  duplicate: Type.Boolean({ description: 'True when ingest_id named an ingestion already done: nothing was written, the counts are those of that ingestion' }),
});

export const errorResponses = {
  400: Type.Ref(ErrorBody),
  401: Type.Ref(ErrorBody),
  403: Type.Ref(ErrorBody),
  404: Type.Ref(ErrorBody),
};

/** A row's `row_id` given back as a paging cursor (the published SDK's LogEventId). */
const LogEventId = (description: string) =>
  Type.Object(
    {
      t: Type.String({ maxLength: 24, description: 'Event time in nanoseconds, as row_id.t' }),
      s: Type.Union([Type.Integer({ minimum: 0 }), Type.String({ maxLength: 24 })], { description: 'Sequence, as row_id.s' }),
    },
    { additionalProperties: false, description: `${description}. null is taken as absent` },
  );

export const QueryBody = Type.Object(
  {
    tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Required when the key holds several tenants' })),
    query: Type.String({ maxLength: 100_000, description: 'Query text (docs/query-language.md)' }),
    start_time: Type.Optional(Type.String({ maxLength: 64, description: "RFC 3339, inclusive; default start_leid's time, else the earliest event (null is taken as absent)" })),
    end_time: Type.Optional(Type.String({ maxLength: 64, description: "RFC 3339, exclusive; default just past end_leid's time, else now (null is taken as absent)" })),
    start_leid: Type.Optional(LogEventId('Only events after this row (time, then sequence): the cursor of the next page read front to back')),
    end_leid: Type.Optional(LogEventId('Only events before this row: the cursor of the next page read back to front')),
    max_rows: Type.Optional(Type.Integer({ minimum: 1, maximum: adhocLimits.maxMaxRows, description: 'Default 1000; aggregations ignore it' })),
    max_bytes: Type.Optional(Type.Integer({ minimum: adhocLimits.minMaxBytes, maximum: adhocLimits.maxMaxBytes, description: 'Bound of the in-memory table; default 128 MiB' })),
    scan_back_to_front: Type.Optional(Type.Boolean({ description: 'Default true: the latest events in range' })),
  },
  { additionalProperties: false },
);
export type QueryBody = Static<typeof QueryBody>;

export const QueryStartResponse = Type.Object({ qr_id: Type.String() });

// No length bound: an id no query can have is simply not found (and cancelling it is a 204).
export const QueryIdParams = Type.Object({ qr_id: Type.String({ minLength: 1 }) });
export type QueryIdParams = Static<typeof QueryIdParams>;

export const QueryProgressQuery = Type.Object(
  {
    tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only look for the query among this tenant’s; by default among every tenant the key holds' })),
    show_intermediate_results: Type.Optional(Type.Boolean({ description: 'Default true; false shows no rows until completion' })),
  },
  { additionalProperties: false },
);
export type QueryProgressQuery = Static<typeof QueryProgressQuery>;
