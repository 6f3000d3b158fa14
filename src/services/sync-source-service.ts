import { NotFoundError, ValidationError, newId, type Clock } from '../core/index.js';
import type { Page, Store, SyncSourceRecord } from '../store/index.js';
import type { Actor } from './actor.js';
import type { AuditTrail } from './audit-trail.js';
import { checkPageSize } from './detection-rule-service.js';
import { checkTenantId } from './names.js';
import type { TenantService } from './tenant-service.js';

export const maxSyncSourcePageSize = 1000;

/** A sink-key map as given: each key names one or more sinks of the tenant. */
export type SinkKeysInput = Readonly<Record<string, readonly string[]>>;

export interface SyncSourceInput {
  readonly pushKey: string;
  readonly branch: string;
  readonly sinkKeys?: SinkKeysInput;
}

// Printable text without control characters; push keys and branches are compared verbatim.
const pushKeyPattern = /^[^\p{Cc}]{1,200}$/u;
const branchPattern = /^[^\p{Cc}\s]{1,255}$/u;
const sinkKeyPattern = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** Adds, lists, shows, re-maps and deletes the repositories a tenant syncs rules from (detections.md 3.4-3.5). */
export class SyncSourceService {
  constructor(
    private readonly store: Store,
    private readonly tenants: TenantService,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /** Adds a source; ConflictError when the tenant has one with this push key and branch. The tenant is created on first use. */
  async create(tenantId: string, input: SyncSourceInput, actor: Actor): Promise<SyncSourceRecord> {
    checkTenantId(tenantId);
    const pushKey = checkPushKey(input.pushKey);
    const branch = checkBranch(input.branch);
    const sinkKeys = checkSinkKeys(input.sinkKeys ?? {});
    tenantId = (await this.tenants.ensure(tenantId)).id; // a name (`default`) stands for its tenant's id
    const now = this.clock.nowMs();
    const source: SyncSourceRecord = {
      id: newId(),
      tenantId,
      pushKey,
      branch,
      sinkKeys,
      revision: 0,
      lastCommitSha: null,
      lastCommitMessage: null,
      lastSyncedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.store.syncSources.insert(source);
    await this.audit.record(tenantId, actor, 'sync_source.create', source.id, { push_key: pushKey, branch, event_sink_keys: sinkKeys });
    return source;
  }

  /** The tenant's sources in creation order, a page at a time. */
  list(tenantId: string, pageSize: number, pageToken?: string): Promise<Page<SyncSourceRecord>> {
    checkPageSize(pageSize, maxSyncSourcePageSize);
    return this.store.syncSources.list(tenantId, { pageSize, ...(pageToken ? { pageToken } : {}) });
  }

  /** The source if the caller may see its tenant; missing and other tenants' sources answer the same NotFoundError. */
  async find(id: string, canSeeTenant: (tenantId: string) => boolean): Promise<SyncSourceRecord> {
    const source = await this.store.syncSources.getAnyTenant(id);
    if (!source || !canSeeTenant(source.tenantId)) throw new NotFoundError(`sync source ${JSON.stringify(id)} not found`);
    return source;
  }

  /**
   * The source an upload names by push key and branch. The tenant is the one given, else the one
   * tenant the caller sees with such a source; several such tenants need `tenant_id`.
   */
  async resolve(pushKey: string, branch: string, tenantId: string | undefined, canSeeTenant: (tenantId: string) => boolean): Promise<SyncSourceRecord> {
    checkPushKey(pushKey);
    checkBranch(branch);
    const candidates = (await this.store.syncSources.findByPushKey(pushKey, branch)).filter(
      (source) => canSeeTenant(source.tenantId) && (tenantId === undefined || source.tenantId === tenantId),
    );
    const [only, ...others] = candidates;
    if (only === undefined) {
      throw new NotFoundError(
        `no sync source with push_key ${JSON.stringify(pushKey)} and branch ${JSON.stringify(branch)}${tenantId === undefined ? '' : ` in tenant ${JSON.stringify(tenantId)}`} (add one with: vigil sync-sources create)`,
      );
    }
    if (others.length > 0) {
      throw new ValidationError(
        `tenant_id is required: tenants ${candidates.map((s) => JSON.stringify(s.tenantId)).join(', ')} each have a sync source with this push_key and branch`,
        {
          field: 'tenant_id',
        },
      );
    }
    return only;
  }

  /** Replaces the source's sink-key map; the next sync resolves its rules' keys through it. */
  async updateSinkKeys(id: string, sinkKeys: SinkKeysInput, canSeeTenant: (tenantId: string) => boolean, actor: Actor): Promise<SyncSourceRecord> {
    const source = await this.find(id, canSeeTenant);
    const checked = checkSinkKeys(sinkKeys);
    const updated = await this.store.syncSources.updateSinkKeys(source.tenantId, source.id, checked, this.clock.nowMs());
    if (!updated) throw new NotFoundError(`sync source ${JSON.stringify(id)} not found`);
    await this.audit.record(source.tenantId, actor, 'sync_source.update', source.id, { push_key: source.pushKey, branch: source.branch, event_sink_keys: checked });
    return updated;
  }

  /** Deletes the source and every rule synced from it (they have no life without it); each rule gets its own audit entry. */
  async delete(id: string, canSeeTenant: (tenantId: string) => boolean, actor: Actor): Promise<{ source: SyncSourceRecord; deletedRuleIds: string[] }> {
    const source = await this.find(id, canSeeTenant);
    const result = await this.store.syncSources.delete(source.tenantId, source.id);
    if (!result) throw new NotFoundError(`sync source ${JSON.stringify(id)} not found`);
    await this.audit.record(source.tenantId, actor, 'sync_source.delete', source.id, { push_key: source.pushKey, branch: source.branch, deleted_rule_ids: result.deletedRuleIds });
    for (const ruleId of result.deletedRuleIds) {
      await this.audit.record(source.tenantId, actor, 'detection_rule.delete', ruleId, { reason: 'its sync source was deleted', detection_rule_sync_id: source.id });
    }
    return { source, deletedRuleIds: result.deletedRuleIds };
  }
}

function checkPushKey(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || !pushKeyPattern.test(value)) {
    throw new ValidationError('push_key must be 1-200 characters without control characters', { field: 'push_key' });
  }
  return value;
}

function checkBranch(value: unknown): string {
  if (typeof value !== 'string' || !branchPattern.test(value)) {
    throw new ValidationError('branch must be 1-255 characters without spaces or control characters', { field: 'branch' });
  }
  return value;
}

/** Keys like `high_severity_alerts`, each naming 1-100 distinct sinks; at most 500 keys. */
function checkSinkKeys(input: SinkKeysInput): Record<string, string[]> {
  const entries = Object.entries(input);
  if (entries.length > 500) throw new ValidationError('event_sink_keys holds more than 500 keys', { field: 'event_sink_keys' });
  const checked = new Map<string, string[]>();
  for (const [key, ids] of entries) {
    const field = `event_sink_keys.${key}`;
    if (!sinkKeyPattern.test(key)) throw new ValidationError(`sink key ${JSON.stringify(key)} must be 1-128 letters, digits or _ . : - starting with a letter or digit`, { field });
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100 || !ids.every((id) => typeof id === 'string' && id !== '')) {
      throw new ValidationError(`sink key ${JSON.stringify(key)} must name 1-100 event sink ids`, { field });
    }
    checked.set(key, [...new Set(ids)]);
  }
  // Through a Map, so that a key spelled `__proto__` stays an ordinary key.
  return Object.fromEntries(checked);
}
