import { NotFoundError, ValidationError, newId, type Clock, type SecretBox } from '../core/index.js';
import type { EventSinkArgsChecker, EventSinkArgsInput, SinkSecrets } from '../detections/index.js';
import type { EventSinkRecord, Page, Store } from '../store/index.js';
import type { Actor } from './actor.js';
import type { AuditTrail } from './audit-trail.js';
import { checkPageSize } from './detection-rule-service.js';
import { checkDescription, checkDisplayName, checkTenantId } from './names.js';
import type { TenantService } from './tenant-service.js';

export const maxSinkPageSize = 1000;

export interface EventSinkInput {
  readonly name?: string;
  readonly description?: string;
  readonly args?: EventSinkArgsInput;
}

/** Creates, lists, reads, changes and deletes event sinks (docs/interface.md 2.7, 4.3). Secrets are sealed before they reach the store. */
export class EventSinkService {
  constructor(
    private readonly store: Store,
    private readonly tenants: TenantService,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
    private readonly checker: EventSinkArgsChecker,
  ) {}

  async create(tenantId: string, input: EventSinkInput, actor: Actor): Promise<EventSinkRecord> {
    checkTenantId(tenantId);
    const name = checkDisplayName(input.name);
    const description = checkDescription(input.description ?? '');
    if (input.args === undefined) throw new ValidationError('missing required field event_sink_args', { field: 'event_sink_args' });
    const args = this.checker.check(input.args);
    tenantId = (await this.tenants.ensure(tenantId)).id; // a name (`default`) stands for its tenant's id
    if (args.chatIntegrationId !== null) await this.checkIntegration(tenantId, args.chatIntegrationId);
    const id = newId();
    const now = this.clock.nowMs();
    const sink: EventSinkRecord = {
      id,
      tenantId,
      name,
      description,
      type: args.type,
      config: args.config,
      sealedSecrets: this.seal(tenantId, id, args.secrets),
      chatIntegrationId: args.chatIntegrationId,
      createdAt: now,
      updatedAt: now,
    };
    await this.store.sinks.insert(sink);
    await this.audit.record(tenantId, actor, 'event_sink.create', id, { name, type: sink.type, ...destinationOf(sink) });
    return sink;
  }

  /** The tenant's sinks in creation order, a page at a time. */
  list(tenantId: string, pageSize: number, pageToken?: string): Promise<Page<EventSinkRecord>> {
    checkPageSize(pageSize, maxSinkPageSize);
    return this.store.sinks.list(tenantId, { pageSize, ...(pageToken ? { pageToken } : {}) });
  }

  /** The sink if the caller may see its tenant; missing and other tenants' sinks answer the same NotFoundError. */
  async find(id: string, canSeeTenant: (tenantId: string) => boolean): Promise<EventSinkRecord> {
    const sink = await this.store.sinks.getAnyTenant(id);
    if (!sink || !canSeeTenant(sink.tenantId)) throw new NotFoundError(`event sink ${JSON.stringify(id)} not found`);
    return sink;
  }

  /** Replaces the given fields; `args` of the same variant keep the arguments they do not give (secrets included). */
  async update(id: string, input: EventSinkInput, canSeeTenant: (tenantId: string) => boolean, actor: Actor): Promise<EventSinkRecord> {
    const sink = await this.find(id, canSeeTenant);
    const name = input.name === undefined ? undefined : checkDisplayName(input.name);
    const description = input.description === undefined ? undefined : checkDescription(input.description);
    let argsChanges = {};
    if (input.args !== undefined) {
      const args = this.checker.check(input.args, { type: sink.type, config: sink.config, secrets: this.secretsOf(sink) });
      if (args.chatIntegrationId !== null && args.chatIntegrationId !== sink.chatIntegrationId) await this.checkIntegration(sink.tenantId, args.chatIntegrationId);
      argsChanges = { type: args.type, config: args.config, sealedSecrets: this.seal(sink.tenantId, sink.id, args.secrets), chatIntegrationId: args.chatIntegrationId };
    }
    const changes = { ...(name === undefined ? {} : { name }), ...(description === undefined ? {} : { description }), ...argsChanges };
    const updated = await this.store.sinks.update(sink.tenantId, sink.id, changes, this.clock.nowMs());
    if (!updated) throw new NotFoundError(`event sink ${JSON.stringify(id)} not found`);
    const given = [...(name === undefined ? [] : ['name']), ...(description === undefined ? [] : ['description']), ...(input.args === undefined ? [] : ['event_sink_args'])];
    if (given.length > 0) {
      await this.audit.record(sink.tenantId, actor, 'event_sink.update', sink.id, { name: updated.name, type: updated.type, changes: given, ...destinationOf(updated) });
    }
    return updated;
  }

  /** Deletes the sink and removes it from every rule that used it; each of those rules gets its own audit entry. */
  async delete(id: string, canSeeTenant: (tenantId: string) => boolean, actor: Actor): Promise<{ sink: EventSinkRecord; detachedRuleIds: string[] }> {
    const sink = await this.find(id, canSeeTenant);
    const result = await this.store.sinks.delete(sink.tenantId, sink.id, this.clock.nowMs());
    if (!result) throw new NotFoundError(`event sink ${JSON.stringify(id)} not found`);
    await this.audit.record(sink.tenantId, actor, 'event_sink.delete', sink.id, { name: sink.name, type: sink.type, detached_from_rules: result.detachedRuleIds });
    for (const ruleId of result.detachedRuleIds) {
      await this.audit.record(sink.tenantId, actor, 'detection_rule.update', ruleId, {
        changes: ['event_sink_ids'],
        removed_event_sink_id: sink.id,
        reason: 'the event sink was deleted',
      });
    }
    return { sink, detachedRuleIds: result.detachedRuleIds };
  }

  /** The sink's secret arguments in clear (for updates here, and for the delivery worker). */
  secretsOf(sink: EventSinkRecord): SinkSecrets | null {
    return sink.sealedSecrets === null ? null : (JSON.parse(this.secrets.open(sink.sealedSecrets, sealContext(sink.tenantId, sink.id))) as SinkSecrets);
  }

  private seal(tenantId: string, id: string, secrets: SinkSecrets | null): string | null {
    return secrets === null ? null : this.secrets.seal(JSON.stringify(secrets), sealContext(tenantId, id));
  }

  /** Another tenant's integration is reported exactly like a missing one. */
  private async checkIntegration(tenantId: string, integrationId: string): Promise<void> {
    if (!(await this.store.chatIntegrations.get(tenantId, integrationId))) {
      throw new ValidationError(`chat integration ${JSON.stringify(integrationId)} not found (operators add one with: vigil integrations chat add)`, {
        field: 'event_sink_args.Chat.chat_integration_id',
      });
    }
  }
}

/** The sealed secrets of a sink open only for that sink of that tenant. */
function sealContext(tenantId: string, id: string): string {
  return `event_sink:${tenantId}:${id}`;
}

/** What the audit trail says about where a sink sends: never a URL path or query, which may carry tokens. */
function destinationOf(sink: EventSinkRecord): Record<string, unknown> {
  switch (sink.type) {
    case 'Webhook':
      return { host: new URL(String(sink.config.url)).host };
    case 'Chat':
      return { channel: sink.config.channel_id ?? sink.config.channel, chat_integration_id: sink.chatIntegrationId };
    case 'Pager':
      return {};
  }
}
