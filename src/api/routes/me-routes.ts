import type { FastifyInstance } from 'fastify';
import { allTenants, type TenantService } from '../../admin/index.js';
import { apiKeyOf } from '../auth.js';
import { MeResponse } from '../console-schemas.js';
import { errorResponses } from '../schemas.js';

/** `GET /v1/me`: the key and its tenants, for the console's sign-in and tenant picker. */
export function registerMeRoutes(app: FastifyInstance, tenants: TenantService): void {
  app.get(
    '/v1/me',
    { schema: { summary: 'The API key making the request and the tenants it holds (every tenant for an admin key)', tags: ['console'], response: { 200: MeResponse, ...errorResponses } } },
    async (request) => {
      const key = apiKeyOf(request);
      const admin = key.tenants.includes(allTenants);
      const ids = admin ? (await tenants.list()).map((t) => t.id) : [...key.tenants].sort();
      return { api_key: { id: key.id, name: key.name, prefix: key.prefix, admin }, tenants: ids.map((id) => ({ id, name: id })) };
    },
  );
}
