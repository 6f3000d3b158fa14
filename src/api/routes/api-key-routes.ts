import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ConflictError, ForbiddenError, ValidationError } from '../../core/index.js';
import { allTenants, type KeyService } from '../../services/index.js';
import type { ApiKeyRecord } from '../../store/index.js';
import { actorOf, apiKeyOf } from '../auth.js';
import { ApiKeyCreateBody, ApiKeyCreateResponse, ApiKeyListResponse, ApiKeyResponse, type ApiKeyObject } from '../console-schemas.js';
import { ErrorBody, IdParams, errorResponses } from '../schemas.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The public shape of a key: never its secret or hash. */
export function toApiKeyObject(key: ApiKeyRecord): ApiKeyObject {
  const admin = key.tenants.includes(allTenants);
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    admin,
    tenant_ids: admin ? [] : [...key.tenants],
    created_at: iso(key.createdAt) as string,
    last_used_at: iso(key.lastUsedAt),
    revoked_at: iso(key.revokedAt),
  };
}

function requireAdmin(request: FastifyRequest): ApiKeyRecord {
  const key = apiKeyOf(request);
  if (!key.tenants.includes(allTenants)) throw new ForbiddenError('only an admin api key may list, create or revoke api keys');
  return key;
}

/** `/v1/api_key`: the keys page, for admin keys only (the same service as `vigil keys`). */
export function registerApiKeyRoutes(app: FastifyInstance, keys: KeyService): void {
  const responses = { ...errorResponses, 409: Type.Ref(ErrorBody) };

  app.get(
    '/v1/api_key',
    { schema: { summary: 'List every API key, revoked ones included (admin keys only)', tags: ['api keys'], response: { 200: ApiKeyListResponse, ...errorResponses } } },
    async (request) => {
      requireAdmin(request);
      return { data: { api_keys: (await keys.list()).map(toApiKeyObject) }, pagination: { next_page_token: null } };
    },
  );

  app.post<{ Body: ApiKeyCreateBody }>(
    '/v1/api_key',
    {
      schema: {
        summary: 'Create an API key for tenants, or an admin key; the secret is shown once',
        tags: ['api keys'],
        body: ApiKeyCreateBody,
        response: { 200: ApiKeyCreateResponse, ...errorResponses },
      },
    },
    async (request) => {
      requireAdmin(request);
      const { name, tenant_ids: tenantIds, admin } = request.body;
      if ((admin === true) === (tenantIds !== undefined)) {
        throw new ValidationError('give exactly one of tenant_ids and admin: true', { field: tenantIds === undefined ? 'tenant_ids' : 'admin' });
      }
      const created = await keys.create({ ...(name === undefined ? {} : { name }), tenants: tenantIds ?? [], admin: admin === true }, actorOf(request));
      return { api_key: toApiKeyObject(created.key), key: created.secret };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/v1/api_key/:id',
    { schema: { summary: 'Revoke an API key (not the one making the request)', tags: ['api keys'], params: IdParams, response: { 200: ApiKeyResponse, ...responses } } },
    async (request) => {
      const caller = requireAdmin(request);
      if (request.params.id === caller.id) throw new ConflictError('this is the api key making the request: revoke it with another key or vigil keys revoke');
      const revoked = await keys.revoke(request.params.id, actorOf(request));
      return { api_key: toApiKeyObject(revoked) };
    },
  );
}
