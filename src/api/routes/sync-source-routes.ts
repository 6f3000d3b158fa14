import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ValidationError, formatApiTimestamp } from '../../core/index.js';
import { keyHoldsTenant, type SyncSourceService } from '../../services/index.js';
import type { SyncSourceRecord } from '../../store/index.js';
import { actorOf, apiKeyOf, assertTenantAccess } from '../auth.js';
import { ErrorBody, IdParams, errorResponses } from '../schemas.js';
import {
  SyncSourceCreateBody,
  SyncSourceDeletedResponse,
  SyncSourceListQuery,
  SyncSourceListResponse,
  SyncSourceResponse,
  SyncSourceUpdateBody,
  type SyncSourceObject,
} from '../sync-schemas.js';

/** The public shape of a sync source. */
export function toSyncSourceObject(source: SyncSourceRecord): SyncSourceObject {
  return {
    id: source.id,
    tenant_id: source.tenantId,
    push_key: source.pushKey,
    branch: source.branch,
    event_sink_keys: Object.fromEntries(Object.entries(source.sinkKeys).map(([key, ids]) => [key, [...ids]])),
    last_commit_sha: source.lastCommitSha,
    last_commit_message: source.lastCommitMessage,
    last_synced_at: source.lastSyncedAt === null ? null : formatApiTimestamp(source.lastSyncedAt),
    created_at: formatApiTimestamp(source.createdAt),
    updated_at: formatApiTimestamp(source.updatedAt),
  };
}

const responses = { ...errorResponses, 409: Type.Ref(ErrorBody) };

/** `/v1/sync_source`: the repositories a tenant syncs rules from. Ids of sources the key cannot see answer 404, like unknown ones. */
export function registerSyncSourceRoutes(app: FastifyInstance, sources: SyncSourceService): void {
  const visible = (request: Parameters<typeof apiKeyOf>[0]) => {
    const key = apiKeyOf(request);
    return (tenantId: string) => keyHoldsTenant(key, tenantId);
  };
  const tags = ['sync sources'];

  app.post<{ Body: SyncSourceCreateBody }>(
    '/v1/sync_source',
    { schema: { summary: 'Add a repository to sync detection rules from', tags, body: SyncSourceCreateBody, response: { 200: SyncSourceResponse, ...responses } } },
    async (request) => {
      const { tenant_id: tenantId, push_key: pushKey, branch, event_sink_keys: sinkKeys } = request.body;
      assertTenantAccess(request, tenantId);
      const source = await sources.create(tenantId, { pushKey, branch, ...(sinkKeys ? { sinkKeys } : {}) }, actorOf(request));
      return { sync_source: toSyncSourceObject(source) };
    },
  );

  app.get<{ Querystring: SyncSourceListQuery }>(
    '/v1/sync_source',
    { schema: { summary: 'List the sync sources of a tenant', tags, querystring: SyncSourceListQuery, response: { 200: SyncSourceListResponse, ...errorResponses } } },
    async (request) => {
      const query = request.query;
      assertTenantAccess(request, query.tenant_id);
      const token = query['pagination[page_token]'];
      const page = await sources.list(query.tenant_id, query['pagination[page_size]'] ?? 50, token === '' ? undefined : token);
      return { data: { sync_sources: page.items.map(toSyncSourceObject) }, pagination: { next_page_token: page.nextPageToken } };
    },
  );

  app.get<{ Params: IdParams }>(
    '/v1/sync_source/:id',
    { schema: { summary: 'Read one sync source and its last commit', tags, params: IdParams, response: { 200: SyncSourceResponse, ...errorResponses } } },
    async (request) => ({ sync_source: toSyncSourceObject(await sources.find(request.params.id, visible(request))) }),
  );

  app.put<{ Params: IdParams; Body: SyncSourceUpdateBody }>(
    '/v1/sync_source/:id',
    {
      schema: { summary: 'Replace the event sink keys of a sync source', tags, params: IdParams, body: SyncSourceUpdateBody, response: { 200: SyncSourceResponse, ...responses } },
    },
    async (request) => {
      const { id, event_sink_keys: sinkKeys } = request.body;
      if (id !== request.params.id) throw new ValidationError(`id ${JSON.stringify(id)} does not match the id in the path`, { field: 'id' });
      const source = await sources.updateSinkKeys(request.params.id, sinkKeys, visible(request), actorOf(request));
      return { sync_source: toSyncSourceObject(source) };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/v1/sync_source/:id',
    { schema: { summary: 'Delete a sync source and the rules synced from it', tags, params: IdParams, response: { 200: SyncSourceDeletedResponse, ...errorResponses } } },
    async (request) => {
      const { source, deletedRuleIds } = await sources.delete(request.params.id, visible(request), actorOf(request));
      return { id: source.id, tenant_id: source.tenantId, deleted_detection_rule_ids: deletedRuleIds };
    },
  );
}
