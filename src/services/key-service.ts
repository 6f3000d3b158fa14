import { createHash, randomBytes } from 'node:crypto';
import { NotFoundError, ValidationError, newId, type Clock } from '../core/index.js';
import type { ApiKeyRecord, Store } from '../store/index.js';
import type { Actor } from './actor.js';
import type { AuditTrail } from './audit-trail.js';
import { checkDisplayName, checkTenantId } from './names.js';
import type { TenantService } from './tenant-service.js';

/** Keys look like `vgl_` + 32 base64url characters: 192 random bits. */
export const apiKeyPrefix = 'vgl_';
const keyPrefix = apiKeyPrefix;
/** The tenant list of an admin key: every tenant. */
export const allTenants = '*';

export interface CreatedKey {
  readonly key: ApiKeyRecord;
  /** The secret, shown once; only its SHA-256 is stored. */
  readonly secret: string;
}

/** The SHA-256 hex digest under which a key is stored and looked up. */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** True when the key may act on the tenant. */
export function keyHoldsTenant(key: ApiKeyRecord, tenantId: string): boolean {
  return key.tenants.includes(allTenants) || key.tenants.includes(tenantId);
}

/** Issues, lists, revokes and checks API keys. */
export class KeyService {
  constructor(
    private readonly store: Store,
    private readonly tenants: TenantService,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /** Creates a key for the tenants (created on first use), or for every tenant with `admin`. */
  async create(input: { name?: string; tenants: readonly string[]; admin?: boolean }, actor: Actor): Promise<CreatedKey> {
    const tenantIds = [...new Set(input.tenants)];
    if (!input.admin && tenantIds.length === 0) throw new ValidationError('a key needs at least one tenant (or admin access)', { field: 'tenant' });
    tenantIds.forEach((t) => checkTenantId(t, 'tenant'));
    const name = input.name ?? (input.admin ? 'admin' : `key for ${tenantIds.join(', ')}`);
    checkDisplayName(name, 'name', 200);
    // A key holds tenant ids: a name given (`default`) is stored as the id it stands for.
    const ids: string[] = [];
    for (const ref of tenantIds) ids.push((await this.tenants.ensure(ref)).id);
    const secret = keyPrefix + randomBytes(24).toString('base64url');
    const key: ApiKeyRecord = {
      id: newId(),
      name,
      prefix: secret.slice(0, keyPrefix.length + 6),
      keyHash: hashApiKey(secret),
      tenants: input.admin ? [allTenants] : [...new Set(ids)],
      createdAt: this.clock.nowMs(),
      revokedAt: null,
      lastUsedAt: null,
    };
    await this.store.apiKeys.insert(key);
    for (const tenantId of input.admin ? ids : key.tenants) {
      await this.audit.record(tenantId, actor, 'api_key.create', key.id, { name, prefix: key.prefix, tenants: key.tenants });
    }
    return { key, secret };
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.store.apiKeys.list();
  }

  /** Revokes a key by id; requests with it get 401 from then on. Answers the key as revoked. */
  async revoke(id: string, actor: Actor): Promise<ApiKeyRecord> {
    const key = await this.store.apiKeys.get(id);
    if (!key || !(await this.store.apiKeys.revoke(id, this.clock.nowMs()))) throw new NotFoundError(`no live api key with id ${JSON.stringify(id)}`);
    for (const tenantId of key.tenants.filter((t) => t !== allTenants)) {
      await this.audit.record(tenantId, actor, 'api_key.revoke', key.id, { name: key.name, prefix: key.prefix });
    }
    return (await this.store.apiKeys.get(id)) ?? key;
  }

  /** The live key matching the secret, or null. Records its use. */
  async authenticate(secret: string): Promise<ApiKeyRecord | null> {
    if (!secret.startsWith(keyPrefix) || secret.length > 200) return null;
    const key = await this.store.apiKeys.findActiveByHash(hashApiKey(secret));
    if (key) await this.store.apiKeys.touch(key.id, this.clock.nowMs());
    return key;
  }

  /** True once any live key exists; the first server start creates the bootstrap key otherwise. */
  anyActive(): Promise<boolean> {
    return this.store.apiKeys.anyActive();
  }
}
