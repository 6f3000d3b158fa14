import type { FastifyInstance } from 'fastify';
import { allTenants, type TenantService } from '../../services/index.js';
import { apiKeyOf } from '../auth.js';
import { MeResponse } from '../console-schemas.js';
import { errorResponses } from '../schemas.js';

/** `GET /v1/me`: the key and its tenants, for the console's sign-in and tenant picker. */
export function registerMeRoutes(app: FastifyInstance, tenants: TenantService): void {
  app.get(
    '/v1/me',
    {
      schema: {
        summary: 'The API key making the request and the tenants it holds (every tenant for an admin key)',
        tags: ['console'],
        response: { 200: MeResponse, ...errorResponses },
      },
    },
    async (request) => {
      const key = apiKeyOf(request);
      const admin = key.tenants.includes(allTenants);
      const all = await tenants.list();
      const held = admin ? all : all.filter((t) => key.tenants.includes(t.id));
      return { api_key: { id: key.id, name: key.name, prefix: key.prefix, admin }, tenants: held.map((t) => ({ id: t.id, name: t.name })) };
    },
  );
}
