import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError, formatApiTimestamp, formatRfc3339Ns } from '../../core/index.js';
import { keyHoldsTenant, type IndexInsights, type IndexService } from '../../services/index.js';
import { defaultSourceType, defaultTimestampFields } from '../../ingest/index.js';
import { checkRange } from '../../search/index.js';
import type { IndexRecord } from '../../store/index.js';
import { actorOf, apiKeyOf, assertTenantAccess, visibleTenants } from '../auth.js';
import { IndexFieldsQuery, IndexFieldsResponse, IndexStatsResponse, IndexUpdateBody, TenantScopeQuery } from '../console-schemas.js';
import { IdParams, IndexListQuery, IndexListResponse, IndexObject, errorResponses } from '../schemas.js';

/** The public shape of an index (docs/interface.md 2.8, plus its settings). */
export function toIndexObject(index: IndexRecord): IndexObject {
  return {
    id: index.id,
    name: index.name,
    description: index.description,
    retention_days: index.retentionDays,
    // A set: indexes made before settings were de-duplicated may list a field twice.
    timestamp_fields: [...new Set(index.timestampFields ?? defaultTimestampFields)],
    source_type: index.sourceType ?? defaultSourceType,
    created_at: formatApiTimestamp(index.createdAt),
    updated_at: formatApiTimestamp(index.updatedAt),
  };
}

/** The user index with this id, if it is of a tenant the request may see (and of `tenant_id` when given): 404 otherwise. */
function visibleIndex(indexes: IndexService, request: FastifyRequest, id: string, tenantId: string | undefined): Promise<IndexRecord> {
  return indexes.getVisible(id, visibleTenants(request, tenantId));
}

/**
 * `GET /v1/index` and `GET /v1/index/{id}` (docs/interface.md 4.4): user indexes only; and the console's
 * additions (docs/api.md): `PUT /v1/index/{id}`, and with the events engine its stats and fields.
 */
export function registerIndexRoutes(app: FastifyInstance, indexes: IndexService, insights: IndexInsights | null): void {
  app.get<{ Querystring: IndexListQuery }>(
    '/v1/index',
    { schema: { summary: 'List the user indexes of a tenant', tags: ['indexes'], querystring: IndexListQuery, response: { 200: IndexListResponse, ...errorResponses } } },
    async (request) => {
      const query = request.query;
      assertTenantAccess(request, query.tenant_id);
      const token = query['pagination[page_token]'];
      const page = await indexes.list(query.tenant_id, query['pagination[page_size]'] ?? 100, token === '' ? undefined : token);
      return { data: { indexes: page.items.map(toIndexObject) }, pagination: { next_page_token: page.nextPageToken } };
    },
  );

  app.get<{ Params: IdParams }>(
    '/v1/index/:id',
    { schema: { summary: 'Read one user index (the object itself, not wrapped)', tags: ['indexes'], params: IdParams, response: { 200: IndexObject, ...errorResponses } } },
    async (request) => {
      const key = apiKeyOf(request);
      const index = await indexes.getVisible(request.params.id, (tenantId) => keyHoldsTenant(key, tenantId));
      return toIndexObject(index);
    },
  );

  app.put<{ Params: IdParams; Body: IndexUpdateBody }>(
    '/v1/index/:id',
    {
      schema: {
        summary: 'Change an index’s retention, description, timestamp fields or source type',
        tags: ['indexes'],
        params: IdParams,
        body: IndexUpdateBody,
        response: { 200: IndexObject, ...errorResponses },
      },
    },
    async (request) => {
      const { tenant_id: tenantId, retention_days: retentionDays, description, timestamp_fields: timestampFields, source_type: sourceType } = request.body;
      const index = await visibleIndex(indexes, request, request.params.id, tenantId);
      const changes = {
        ...(retentionDays === undefined ? {} : { retentionDays }),
        ...(description === undefined ? {} : { description }),
        ...(timestampFields === undefined ? {} : { timestampFields }),
        ...(sourceType === undefined ? {} : { sourceType }),
      };
      return toIndexObject(await indexes.update(index.tenantId, index.id, changes, actorOf(request)));
    },
  );

  if (insights === null) return;

  app.get<{ Params: IdParams; Querystring: TenantScopeQuery }>(
    '/v1/index/:id/stats',
    {
      schema: {
        summary: 'An index’s events, time span, events without a time, size on disk and retention',
        tags: ['indexes'],
        params: IdParams,
        querystring: TenantScopeQuery,
        response: { 200: IndexStatsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const index = await visibleIndex(indexes, request, request.params.id, request.query.tenant_id);
      const stats = await insights.stats(index);
      return {
        index_id: index.id,
        name: index.name,
        events: stats.rows,
        first_event_time: stats.minTsNs === null ? null : formatRfc3339Ns(stats.minTsNs),
        last_event_time: stats.maxTsNs === null ? null : formatRfc3339Ns(stats.maxTsNs),
        bytes_on_disk: stats.bytesOnDisk,
        events_without_time: stats.eventsWithoutTime,
        retention_days: index.retentionDays,
      };
    },
  );

  app.get<{ Params: IdParams; Querystring: IndexFieldsQuery }>(
    '/v1/index/:id/fields',
    {
      schema: {
        summary: 'The fields an index holds, with their types and how many events hold each',
        tags: ['indexes'],
        params: IdParams,
        querystring: IndexFieldsQuery,
        response: { 200: IndexFieldsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { tenant_id: tenantId, start_time: startTime, end_time: endTime } = request.query;
      if ((startTime === undefined) !== (endTime === undefined)) {
        throw new ValidationError('give both start_time and end_time, or neither for all time', { field: startTime === undefined ? 'start_time' : 'end_time' });
      }
      const range = startTime === undefined || endTime === undefined ? null : checkRange(startTime, endTime);
      const index = await visibleIndex(indexes, request, request.params.id, tenantId);
      const { events, fields, days } = await insights.fields(index, range);
      const day = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
      return {
        events,
        start_time: days === null ? null : day(days.fromMs),
        end_time: days === null ? null : day(days.toMs),
        fields: fields.map((f) => ({ path: f.path, types: [...f.types], rows: f.rows })),
      };
    },
  );
}
