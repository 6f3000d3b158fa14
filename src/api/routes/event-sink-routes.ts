import type { FastifyInstance } from 'fastify';
import { ValidationError, formatApiTimestamp } from '../../core/index.js';
import { keyHoldsTenant, maxSinkPageSize, type EventSinkService, type SinkTester } from '../../services/index.js';
import type { ApiCompat } from '../../config/index.js';
import type { EventSinkRecord } from '../../store/index.js';
import { actorOf, apiKeyOf, tenantOf } from '../auth.js';
import { listRequestOf, readGetBody } from '../list-request.js';
import { publishedSink } from '../published-names.js';
import { readPublishedSinkSpellings } from '../published-spellings.js';
import {
  DeletedResponse,
  EventSinkCreateBody,
  EventSinkListQuery,
  EventSinkListResponse,
  EventSinkResponse,
  EventSinkUpdateBody,
  type EventSinkObject,
} from '../detection-schemas.js';
import { SinkTestResponse } from '../console-schemas.js';
import { IdParams, errorResponses } from '../schemas.js';

/** The public shape of a sink (docs/interface.md 2.7): `configuration` keyed by variant, never a secret. */
export function toEventSinkObject(sink: EventSinkRecord): EventSinkObject {
  return {
    id: sink.id,
    tenant_id: sink.tenantId,
    name: sink.name,
    description: sink.description,
    event_sink_type: sink.type,
    // The store keeps only public arguments in `config`: secrets are sealed in another column.
    configuration: { [sink.type]: { ...sink.config } } as EventSinkObject['configuration'],
    created_at: formatApiTimestamp(sink.createdAt),
    updated_at: formatApiTimestamp(sink.updatedAt),
  };
}

/**
 * `/v1/event_sink` (docs/interface.md 4.3). Ids of sinks the key cannot see answer 404, like unknown ones.
 * Requests may spell variants as the published product does (`Slack`, `PagerDuty`); answers use
 * the names `compat` says (published-names.ts). `POST /v1/event_sink/{id}/test` sends a test alert.
 */
export function registerEventSinkRoutes(
  app: FastifyInstance,
  sinks: EventSinkService,
  options: { readonly compat: ApiCompat; readonly maxJsonBodyBytes: number; readonly tests: SinkTester },
): void {
  const toObject = (sink: EventSinkRecord): EventSinkObject => publishedSink(toEventSinkObject(sink), options.compat);
  const visible = (request: Parameters<typeof apiKeyOf>[0]) => {
    const key = apiKeyOf(request);
    return (tenantId: string) => keyHoldsTenant(key, tenantId);
  };

  app.post<{ Body: EventSinkCreateBody }>(
    '/v1/event_sink',
    {
      schema: { summary: 'Create an event sink', tags: ['event sinks'], body: EventSinkCreateBody, response: { 200: EventSinkResponse, ...errorResponses } },
      preValidation: readPublishedSinkSpellings,
    },
    async (request) => {
      const body = request.body;
      const sink = await sinks.create(tenantOf(request, body.tenant_id), { name: body.name, description: body.description, args: body.event_sink_args }, actorOf(request));
      return { event_sink: toObject(sink) };
    },
  );

  app.get<{ Querystring: EventSinkListQuery }>(
    '/v1/event_sink',
    {
      schema: {
        summary: 'List the event sinks of a tenant',
        description: 'The tenant and page may also come in a JSON body, as the published SDK sends them: {"tenant_id", "pagination": {"page_size", "page_token"}}',
        tags: ['event sinks'],
        querystring: EventSinkListQuery,
        response: { 200: EventSinkListResponse, ...errorResponses },
      },
      preValidation: readGetBody(options.maxJsonBodyBytes),
    },
    async (request, reply) => {
      const { tenantId, pageSize, pageToken } = listRequestOf(request, reply, 50, maxSinkPageSize);
      const page = await sinks.list(tenantId, pageSize, pageToken);
      return { data: { event_sinks: page.items.map(toObject) }, pagination: { next_page_token: page.nextPageToken } };
    },
  );

  app.get<{ Params: IdParams }>(
    '/v1/event_sink/:id',
    { schema: { summary: 'Read one event sink', tags: ['event sinks'], params: IdParams, response: { 200: EventSinkResponse, ...errorResponses } } },
    async (request) => ({ event_sink: toObject(await sinks.find(request.params.id, visible(request))) }),
  );

  app.put<{ Params: IdParams; Body: EventSinkUpdateBody }>(
    '/v1/event_sink/:id',
    {
      schema: { summary: 'Update an event sink', tags: ['event sinks'], params: IdParams, body: EventSinkUpdateBody, response: { 200: EventSinkResponse, ...errorResponses } },
      preValidation: readPublishedSinkSpellings,
    },
    async (request) => {
      const { id, name, description, event_sink_args: args } = request.body;
      if (id !== request.params.id) throw new ValidationError(`id ${JSON.stringify(id)} does not match the id in the path`, { field: 'id' });
      const sink = await sinks.update(request.params.id, { name, description, args }, visible(request), actorOf(request));
      return { event_sink: toObject(sink) };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/v1/event_sink/:id',
    {
      schema: {
        summary: 'Delete an event sink; rules that used it stop alerting it',
        tags: ['event sinks'],
        params: IdParams,
        response: { 200: DeletedResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { sink } = await sinks.delete(request.params.id, visible(request), actorOf(request));
      return { id: sink.id, tenant_id: sink.tenantId };
    },
  );

  app.post<{ Params: IdParams }>(
    '/v1/event_sink/:id/test',
    {
      schema: {
        summary: 'Send a clearly marked test alert to the sink now, once, with the delivery time limit',
        tags: ['event sinks'],
        params: IdParams,
        response: { 200: SinkTestResponse, ...errorResponses },
      },
    },
    async (request) => {
      const outcome = await options.tests.test(request.params.id, visible(request), actorOf(request));
      return {
        delivered: outcome.kind === 'delivered',
        outcome: outcome.kind,
        http_status: outcome.httpStatus,
        latency_ms: Math.round(outcome.latencyMs),
        error: outcome.kind === 'delivered' ? null : outcome.error,
      };
    },
  );
}
