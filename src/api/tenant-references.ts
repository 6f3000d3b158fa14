import type { FastifyRequest } from 'fastify';
import type { TenantService } from '../services/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Tenant ids this request gave by name, and the name it gave (messages say what was sent). */
    tenantNames?: Map<string, string>;
  }
}

/**
 * A preHandler hook that reads a `tenant_id` naming a tenant (`default`) as that tenant's id,
 * in the query string and in a JSON body alike, before routes see it. The bootstrap
 * tenant has a UUID id and the name `default` (docs/compatibility.md): clients written before may
 * keep sending `tenant_id=default`, and keys, objects and events are all kept under the id.
 */
export function resolveTenantReferences(tenants: TenantService) {
  return async (request: FastifyRequest): Promise<void> => {
    for (const holder of [request.query, request.body]) {
      if (holder === null || typeof holder !== 'object' || Array.isArray(holder)) continue;
      const given = (holder as Record<string, unknown>).tenant_id;
      if (typeof given !== 'string' || given === '' || given.length > 64) continue;
      const id = await tenants.resolve(given);
      if (id === given) continue;
      (holder as Record<string, unknown>).tenant_id = id;
      (request.tenantNames ??= new Map()).set(id, given);
    }
  };
}
