import type { FastifyInstance } from 'fastify';
import { formatApiTimestamp } from '../../core/index.js';
import { keyHoldsTenant, type IndexService } from '../../admin/index.js';
import { defaultSourceType, defaultTimestampFields } from '../../ingest/index.js';
import type { IndexRecord } from '../../store/index.js';
import { apiKeyOf, assertTenantAccess } from '../auth.js';
import { IdParams, IndexListQuery, IndexListResponse, IndexObject, errorResponses } from '../schemas.js';

/** The public shape of an index (interface 2.8, plus its settings). */
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

/** `GET /v1/index` and `GET /v1/index/{id}` (interface 4.4): read-only, user indexes only. */
export function registerIndexRoutes(app: FastifyInstance, indexes: IndexService): void {
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
}
