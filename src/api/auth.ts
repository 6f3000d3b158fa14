import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthenticatedError, ValidationError } from '../core/index.js';
import { allTenants, describeActor, keyHoldsTenant, type Actor, type KeyService } from '../services/index.js';
import type { ApiKeyRecord } from '../store/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated API key of a `/v1` request. */
    apiKey?: ApiKeyRecord;
  }
}

/**
 * An onRequest hook that requires `Authorization: Bearer <key>` naming a live key. It runs before
 * the body is read or validated, so a request without a valid key learns nothing but 401.
 */
export function requireApiKey(keys: KeyService) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match?.[1]) throw new UnauthenticatedError('missing api key: send Authorization: Bearer <key>');
    const key = await keys.authenticate(match[1]);
    if (!key) throw new UnauthenticatedError('unknown or revoked api key');
    request.apiKey = key;
    request.log = request.log.child({ actor: describeActor({ kind: 'key', keyId: key.id }) });
  };
}

/** The key of an authenticated request (the onRequest hook guarantees it). */
export function apiKeyOf(request: FastifyRequest): ApiKeyRecord {
  if (!request.apiKey) throw new UnauthenticatedError();
  return request.apiKey;
}

/** Throws 403 unless the request's key holds the tenant it names. */
export function assertTenantAccess(request: FastifyRequest, tenantId: string): void {
  if (keyHoldsTenant(apiKeyOf(request), tenantId)) return;
  const name = request.tenantNames?.get(tenantId);
  throw new ForbiddenError(`this api key has no access to tenant ${JSON.stringify(name ?? tenantId)}${name === undefined ? '' : ` (tenant_id ${tenantId})`}`);
}

/** The audit actor of an authenticated request. */
export function actorOf(request: FastifyRequest): Actor {
  return { kind: 'key', keyId: apiKeyOf(request).id };
}

/**
 * The tenant a request acts on: the `tenant_id` it names (which the key must hold), or the one
 * tenant of a single-tenant key. A key holding several tenants (or all) must name one.
 */
export function tenantOf(request: FastifyRequest, tenantId: string | undefined, field = 'tenant_id'): string {
  const key = apiKeyOf(request);
  if (tenantId !== undefined) {
    assertTenantAccess(request, tenantId);
    return tenantId;
  }
  const [only, ...others] = key.tenants;
  if (only === undefined || others.length > 0 || only === allTenants) {
    throw new ValidationError(`${field} is required: this api key holds several tenants`, { field });
  }
  return only;
}

/**
 * Which tenants' objects a request may see when it names no tenant to act on: the `tenant_id`
 * given (which the key must hold), or every tenant the key holds. For lookups by a globally
 * unique id, where a key holding several tenants need not say which one owns it.
 */
export function visibleTenants(request: FastifyRequest, tenantId: string | undefined): (tenant: string) => boolean {
  const key = apiKeyOf(request);
  if (tenantId === undefined) return (tenant) => keyHoldsTenant(key, tenant);
  assertTenantAccess(request, tenantId);
  return (tenant) => tenant === tenantId;
}
