import type { FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthenticatedError, ValidationError } from '../../core/index.js';
import { allTenants, apiKeyPrefix, describeActor, keyHoldsTenant, type KeyService, type TenantService } from '../../services/index.js';

/** A request with no credential at all (HEC answers it with its own code). */
export class MissingCredentialError extends UnauthenticatedError {}

/** A credential naming no live key (HEC: "Invalid token"). */
export class UnknownKeyError extends UnauthenticatedError {}

/** The authorization schemes a protocol takes (its shippers' conventions), all mapped onto Vigil keys. */
export type ShipperScheme = 'bearer' | 'basic' | 'apikey' | 'splunk';

/** A key found in a request, and the tenant its credential names (Basic user name, ApiKey id). */
export interface ShipperCredential {
  readonly secret: string;
  readonly tenantHint: string | null;
}

/**
 * The credential of a request: `Bearer <key>`; `Basic base64(user:key)` (the user names the
 * tenant); `ApiKey base64(id:key)` (the id names the tenant) or `ApiKey <key>`; `Splunk <key>`.
 * Null when the request has no Authorization header; UnauthenticatedError when it has one this
 * protocol does not take or that cannot be read.
 */
export function credentialOf(request: FastifyRequest, schemes: readonly ShipperScheme[]): ShipperCredential | null {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') return null;
  const match = /^(\S+)\s+(\S+)\s*$/.exec(header);
  const scheme = match?.[1]?.toLowerCase();
  const value = match?.[2] ?? '';
  if (scheme === undefined || !(schemes as readonly string[]).includes(scheme)) {
    throw new UnauthenticatedError(`unsupported authorization: send ${schemes.map(schemeExample).join(' or ')}`);
  }
  if (scheme === 'bearer' || scheme === 'splunk') return { secret: value, tenantHint: null };
  if (scheme === 'apikey') {
    const pair = decodedPair(value);
    // Elasticsearch clients send base64(id:key); a key pasted as it is works too.
    return pair === null || !pair.secret.startsWith(apiKeyPrefix) ? { secret: value, tenantHint: null } : pair;
  }
  const pair = decodedPair(value);
  if (pair === null) throw new UnauthenticatedError('malformed Basic authorization: expected base64 of user:key');
  return pair;
}

function decodedPair(base64: string): ShipperCredential | null {
  if (!/^[A-Za-z0-9+/_-]+=*$/.test(base64)) return null;
  const text = Buffer.from(base64, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const user = text.slice(0, colon);
  return { secret: text.slice(colon + 1), tenantHint: user === '' ? null : user };
}

function schemeExample(scheme: ShipperScheme): string {
  switch (scheme) {
    case 'bearer':
      return 'Bearer <key>';
    case 'basic':
      return 'Basic base64(<tenant>:<key>)';
    case 'apikey':
      return 'ApiKey base64(<tenant>:<key>)';
    case 'splunk':
      return 'Splunk <key>';
  }
}

/**
 * Authenticates the credential and chooses the tenant: the one the request names explicitly
 * (`explicitTenant`: a `tenant_id` query parameter, Loki's `X-Scope-OrgID`), which the key must
 * hold; else the key's only tenant; else the tenant the credential names (a key holding several
 * tenants must say which). A credential's user name is ignored for a one-tenant key, since
 * shippers often require one. Sets the request's key (so the audit trail names it) and its tenant (`shipperTenantOf`).
 */
export async function authenticateShipper(
  deps: { readonly keys: KeyService; readonly tenants: TenantService },
  request: FastifyRequest,
  credential: ShipperCredential | null,
  explicitTenant: string | null,
): Promise<void> {
  if (credential === null) throw new MissingCredentialError('missing api key');
  const key = await deps.keys.authenticate(credential.secret);
  if (!key) throw new UnknownKeyError('unknown or revoked api key');
  request.apiKey = key;
  request.log = request.log.child({ actor: describeActor({ kind: 'key', keyId: key.id }) });
  const [only, ...others] = key.tenants;
  const oneTenant = only !== undefined && others.length === 0 && only !== allTenants ? only : null;
  const named = explicitTenant ?? (oneTenant === null ? credential.tenantHint : null);
  let tenant: string;
  // A tenant named by its name (`default`) is read as its id, as /v1 reads tenant_id.
  if (named !== null) tenant = await deps.tenants.resolve(named);
  else if (oneTenant !== null) tenant = oneTenant;
  else throw new ValidationError('this api key holds several tenants: name one (the user name of Basic auth, or tenant_id in the query string)', { field: 'tenant_id' });
  if (!keyHoldsTenant(key, tenant)) throw new ForbiddenError(`this api key has no access to tenant ${JSON.stringify(named ?? tenant)}`);
  tenantOfRequest.set(request, tenant);
}

const tenantOfRequest = new WeakMap<FastifyRequest, string>();

/** The tenant an authenticated shipper request acts on. */
export function shipperTenantOf(request: FastifyRequest): string {
  const tenant = tenantOfRequest.get(request);
  if (tenant === undefined) throw new UnauthenticatedError();
  return tenant;
}
