import { NotFoundError, ValidationError, newId, type Clock } from '../core/index.js';
import { checkRequiredRuleFields, checkRuleFields, checkRuleQuery, effectiveState, ruleFieldNames, type RuleFieldsInput } from '../detections/index.js';
import type { LookupTableInfo } from '../search/index.js';
import type { DetectionRuleRecord, DetectionRuleSummary, Page, Store } from '../store/index.js';
import type { Actor } from './actor.js';
import type { AuditTrail } from './audit-trail.js';
import type { IndexService } from './index-service.js';
import { checkTenantId } from './names.js';
import type { TenantService } from './tenant-service.js';

export const maxRulePageSize = 1000;

/** Creates, lists, reads, changes and deletes detection rules (docs/interface.md 2.3, 3.1, 4.2). */
export class DetectionRuleService {
  constructor(
    private readonly store: Store,
    private readonly tenants: TenantService,
    private readonly indexes: IndexService,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    /** The tenant's lookup tables, which a rule's query may name (`| lookup`). */
    private readonly lookupTablesOf: (tenantId: string) => Promise<readonly LookupTableInfo[]> = async () => [],
  ) {}

  /** Creates a rule; `authorUserId` is the creating key's name. The tenant is created on first use. */
  async create(tenantId: string, input: RuleFieldsInput, actor: Actor, authorUserId: string | null): Promise<DetectionRuleRecord> {
    checkTenantId(tenantId);
    checkRequiredRuleFields(input);
    const fields = checkRuleFields(input);
    if (fields.enabledStateOverride === null) {
      throw new ValidationError('enabled_state_override must be Active, Staging or Paused', { field: 'enabled_state_override' });
    }
    tenantId = (await this.tenants.ensure(tenantId)).id; // a name (`default`) stands for its tenant's id
    await this.checkQuery(tenantId, fields.queryText ?? '');
    await this.checkSinks(tenantId, fields.eventSinkIds ?? []);
    const now = this.clock.nowMs();
    const rule: DetectionRuleRecord = {
      id: newId(),
      tenantId,
      name: fields.name ?? '',
      description: fields.description ?? '',
      queryText: fields.queryText ?? '',
      preparedQueryId: newId(),
      timeRangeS: fields.timeRangeS ?? 0,
      runFrequencyS: fields.runFrequencyS ?? 0,
      debounce: fields.debounce ?? true,
      alertPerRow: fields.alertPerRow ?? false,
      dedupWindowS: fields.dedupWindowS ?? null,
      enabledStateOverride: fields.enabledStateOverride ?? 'Paused',
      enabledStateSynced: null,
      severity: fields.severity ?? 'Unknown',
      alertTemplate: fields.alertTemplate ?? null,
      tags: fields.tags ?? [],
      syncKey: fields.syncKey ?? null,
      detectionRuleSyncId: null,
      authorUserId,
      eventSinkIds: fields.eventSinkIds ?? [],
      createdAt: now,
      updatedAt: now,
      lastAlertedAt: null,
    };
    await this.store.rules.insert(rule);
    await this.audit.record(tenantId, actor, 'detection_rule.create', rule.id, {
      name: rule.name,
      severity: rule.severity,
      enabled_state: effectiveState(rule),
      event_sink_ids: rule.eventSinkIds,
    });
    return rule;
  }

  /** The tenant's rules in creation order, a page at a time, without their sinks. */
  list(tenantId: string, pageSize: number, pageToken?: string): Promise<Page<DetectionRuleSummary>> {
    checkPageSize(pageSize, maxRulePageSize);
    return this.store.rules.list(tenantId, { pageSize, ...(pageToken ? { pageToken } : {}) });
  }

  /** The rule if the caller may see its tenant; missing and other tenants' rules answer the same NotFoundError. */
  async find(id: string, canSeeTenant: (tenantId: string) => boolean): Promise<DetectionRuleRecord> {
    const rule = await this.store.rules.getAnyTenant(id);
    if (!rule || !canSeeTenant(rule.tenantId)) throw new NotFoundError(`detection rule ${JSON.stringify(id)} not found`);
    return rule;
  }

  /**
   * The rule with this sync key among the tenants the requester may see (the published CLI's
   * sync asks by sync key alone). A key found in several of them is a 400: name the tenant.
   */
  async findBySyncKey(syncKey: string, canSeeTenant: (tenantId: string) => boolean): Promise<DetectionRuleRecord> {
    const rules = (await this.store.rules.listBySyncKeyAnyTenant(syncKey)).filter((rule) => canSeeTenant(rule.tenantId));
    const [only, ...others] = rules;
    if (only === undefined) throw new NotFoundError(`no detection rule with sync_key ${JSON.stringify(syncKey)}`);
    if (others.length > 0) {
      throw new ValidationError(`sync_key ${JSON.stringify(syncKey)} names rules of ${rules.length} tenants: give tenant_id`, { field: 'tenant_id' });
    }
    return only;
  }

  /**
   * Replaces the given fields. A synced rule accepts only `enabled_state_override`; null returns
   * it to its synced state. A rule made through the API always keeps an override (it has no other
   * state), so null is refused for it.
   */
  async update(id: string, input: RuleFieldsInput, canSeeTenant: (tenantId: string) => boolean, actor: Actor): Promise<DetectionRuleRecord> {
    const rule = await this.find(id, canSeeTenant);
    const given = (Object.keys(input) as (keyof RuleFieldsInput)[]).filter((key) => input[key] !== undefined);
    if (rule.detectionRuleSyncId !== null) {
      const refused = given.filter((key) => key !== 'enabledStateOverride').map((key) => ruleFieldNames[key]);
      if (refused.length > 0) {
        throw new ValidationError(
          `detection rule ${JSON.stringify(id)} is synced from a repository: only enabled_state_override can be updated through the API, not ${refused.join(', ')}`,
          { field: refused[0] },
        );
      }
    }
    const fields = checkRuleFields(input, rule);
    if (fields.enabledStateOverride === null && rule.detectionRuleSyncId === null) {
      throw new ValidationError('enabled_state_override can be null only for rules synced from a repository; give Active, Staging or Paused', {
        field: 'enabled_state_override',
      });
    }
    if (fields.queryText !== undefined) await this.checkQuery(rule.tenantId, fields.queryText);
    if (fields.eventSinkIds !== undefined) await this.checkSinks(rule.tenantId, fields.eventSinkIds);
    const queryChanged = fields.queryText !== undefined && fields.queryText !== rule.queryText;
    const updated = await this.store.rules.update(rule.tenantId, rule.id, { ...fields, ...(queryChanged ? { preparedQueryId: newId() } : {}) }, this.clock.nowMs());
    if (!updated) throw new NotFoundError(`detection rule ${JSON.stringify(id)} not found`);
    // E3: moved out of Paused, a rule evaluates the most recent window at once, not the paused time.
    if (effectiveState(rule) === 'Paused' && effectiveState(updated) !== 'Paused') await this.store.detectionState.resetCursor(rule.tenantId, rule.id);
    if (given.length > 0) {
      await this.audit.record(rule.tenantId, actor, 'detection_rule.update', rule.id, {
        name: updated.name,
        changes: given.map((key) => ruleFieldNames[key]),
        enabled_state: effectiveState(updated),
      });
    }
    return updated;
  }

  /** Deletes a rule made through the API; a synced rule goes only with its file or its sync source. */
  async delete(id: string, canSeeTenant: (tenantId: string) => boolean, actor: Actor): Promise<DetectionRuleRecord> {
    const rule = await this.find(id, canSeeTenant);
    if (rule.detectionRuleSyncId !== null) {
      throw new ValidationError(
        `detection rule ${JSON.stringify(id)} is synced from a repository (sync source ${JSON.stringify(rule.detectionRuleSyncId)}): delete its file from the repository and sync, or delete the sync source`,
        { field: 'id' },
      );
    }
    if (!(await this.store.rules.delete(rule.tenantId, rule.id))) throw new NotFoundError(`detection rule ${JSON.stringify(id)} not found`);
    await this.audit.record(rule.tenantId, actor, 'detection_rule.delete', rule.id, { name: rule.name });
    return rule;
  }

  private async checkQuery(tenantId: string, text: string): Promise<void> {
    const indexes = await this.indexes.searchable(tenantId);
    checkRuleQuery(
      text,
      indexes.map((index) => ({ id: index.id, name: index.name, system: index.kind === 'system' })),
      'query_text',
      await this.lookupTablesOf(tenantId),
    );
  }

  /** Another tenant's sink is reported exactly like a missing one: ids leak nothing. */
  private async checkSinks(tenantId: string, sinkIds: readonly string[]): Promise<void> {
    const found = await this.store.sinks.existing(tenantId, sinkIds);
    const missing = sinkIds.findIndex((id) => !found.has(id));
    if (missing >= 0) throw new ValidationError(`event sink ${JSON.stringify(sinkIds[missing])} not found`, { field: `event_sink_ids[${missing}]` });
  }
}

/** ValidationError on `pagination[page_size]` unless 1..max. */
export function checkPageSize(pageSize: number, max: number): void {
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > max) {
    throw new ValidationError(`pagination[page_size] must be an integer from 1 to ${max}`, { field: 'pagination[page_size]' });
  }
}
