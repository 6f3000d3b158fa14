import { NotFoundError, ValidationError, isUuid, newId, type Clock } from '../core/index.js';
import { allPages, type IndexRecord, type Page, type Store } from '../store/index.js';
import type { Actor } from './actor.js';
import type { AuditTrail } from './audit-trail.js';
import { checkIndexName } from './names.js';
import type { TenantService } from './tenant-service.js';

export interface IndexSettingsInput {
  readonly description?: string;
  readonly retentionDays?: number | null;
  readonly timestampFields?: readonly string[] | null;
  readonly sourceType?: string | null;
}

export interface CreateIndexInput extends IndexSettingsInput {
  readonly name: string;
}

const sourceTypePattern = /^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,99}$/;
export const maxIndexPageSize = 1000;

/** Creates, lists, reads, changes and deletes the user indexes of a tenant. */
export class IndexService {
  constructor(
    private readonly store: Store,
    private readonly tenants: TenantService,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /** Creates a user index; the tenant is created on first use. */
  async create(tenantId: string, input: CreateIndexInput, actor: Actor): Promise<IndexRecord> {
    checkIndexName(input.name);
    const settings = checkSettings(input);
    tenantId = (await this.tenants.ensure(tenantId)).id; // a name (`default`) stands for its tenant's id
    const now = this.clock.nowMs();
    const index: IndexRecord = {
      id: newId(),
      tenantId,
      name: input.name,
      description: settings.description ?? '',
      kind: 'user',
      retentionDays: settings.retentionDays ?? null,
      timestampFields: settings.timestampFields ?? null,
      sourceType: settings.sourceType ?? null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
    await this.store.indexes.insert(index);
    await this.audit.record(tenantId, actor, 'index.create', index.id, { name: index.name, retention_days: index.retentionDays });
    return index;
  }

  /** The tenant's user indexes, a page at a time. */
  list(tenantId: string, pageSize: number, pageToken?: string): Promise<Page<IndexRecord>> {
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > maxIndexPageSize) {
      throw new ValidationError(`pagination[page_size] must be an integer from 1 to ${maxIndexPageSize}`, { field: 'pagination[page_size]' });
    }
    return this.store.indexes.list(tenantId, { kind: 'user', pageSize, ...(pageToken ? { pageToken } : {}) });
  }

  /** Every live index of the tenant, system indexes too: what a query may read (D18). */
  async searchable(tenantId: string): Promise<IndexRecord[]> {
    return allPages((pageToken) => this.store.indexes.list(tenantId, { pageSize: maxIndexPageSize, ...(pageToken ? { pageToken } : {}) }));
  }

  /**
   * The user index with this id if the caller may see its tenant. Missing, deleted, system and
   * other tenants' indexes all answer the same NotFoundError, so ids leak nothing.
   */
  async getVisible(id: string, canSeeTenant: (tenantId: string) => boolean): Promise<IndexRecord> {
    const index = isUuid(id) ? await this.store.indexes.getAnyTenant(id) : null;
    if (!index || index.kind !== 'user' || !canSeeTenant(index.tenantId)) throw new NotFoundError(`index ${JSON.stringify(id)} not found`);
    return index;
  }

  /** A user index of the tenant by name or id. */
  async resolve(tenantId: string, nameOrId: string): Promise<IndexRecord> {
    const byName = await this.store.indexes.getByName(tenantId, nameOrId);
    const index = byName ?? (isUuid(nameOrId) ? await this.store.indexes.get(tenantId, nameOrId) : null);
    if (!index || index.kind !== 'user') throw new NotFoundError(`index ${JSON.stringify(nameOrId)} not found`);
    return index;
  }

  /** Changes an index's description, retention, timestamp fields or source type. */
  async update(tenantId: string, nameOrId: string, changes: IndexSettingsInput, actor: Actor): Promise<IndexRecord> {
    const index = await this.resolve(tenantId, nameOrId);
    const settings = checkSettings(changes);
    const updated = await this.store.indexes.update(tenantId, index.id, settings, this.clock.nowMs());
    if (!updated) throw new NotFoundError(`index ${JSON.stringify(nameOrId)} not found`);
    await this.audit.record(tenantId, actor, 'index.update', index.id, { name: index.name, changes: Object.keys(settings) });
    return updated;
  }

  /** Deletes an index: its name is free at once, its events are purged in the background. */
  async delete(tenantId: string, nameOrId: string, actor: Actor): Promise<IndexRecord> {
    const index = await this.resolve(tenantId, nameOrId);
    await this.store.indexes.markDeleted(tenantId, index.id, this.clock.nowMs());
    await this.audit.record(tenantId, actor, 'index.delete', index.id, { name: index.name });
    return index;
  }
}

function checkSettings(input: IndexSettingsInput): IndexSettingsInput {
  const out: { -readonly [K in keyof IndexSettingsInput]: IndexSettingsInput[K] } = {};
  if (input.description !== undefined) {
    if (input.description.length > 2000) throw new ValidationError('description must be at most 2000 characters', { field: 'description' });
    out.description = input.description;
  }
  if (input.retentionDays !== undefined) {
    const r = input.retentionDays;
    if (r !== null && (!Number.isInteger(r) || r < 1 || r > 36_500)) {
      throw new ValidationError('retention_days must be a whole number of days from 1 to 36500, or null to keep events forever', { field: 'retention_days' });
    }
    out.retentionDays = r;
  }
  if (input.timestampFields !== undefined) {
    // A field listed twice is tried once: keep its first place (`--timestamp-field ts` puts ts
    // before the default list, which holds ts too).
    const fields = input.timestampFields === null ? null : [...new Set(input.timestampFields)];
    if (fields !== null) {
      if (fields.length === 0 || fields.length > 32) throw new ValidationError('timestamp_fields must list 1 to 32 fields', { field: 'timestamp_fields' });
      fields.forEach((f, i) => {
        if (f.length === 0 || f.length > 256) throw new ValidationError('each timestamp field must be 1-256 characters', { field: `timestamp_fields[${i}]` });
      });
    }
    out.timestampFields = fields;
  }
  if (input.sourceType !== undefined) {
    if (input.sourceType !== null && !sourceTypePattern.test(input.sourceType)) {
      throw new ValidationError('source_type must be 1-100 letters, digits or _ . : / - (for example aws:cloudtrail)', { field: 'source_type' });
    }
    out.sourceType = input.sourceType;
  }
  return out;
}

/** Checks a source type given with one ingest request. */
export function checkSourceType(value: string, field = 'source_type'): string {
  if (!sourceTypePattern.test(value)) throw new ValidationError('source_type must be 1-100 letters, digits or _ . : / - (for example aws:cloudtrail)', { field });
  return value;
}
