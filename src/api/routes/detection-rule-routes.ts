import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ValidationError, formatApiTimestamp } from '../../core/index.js';
import { keyHoldsTenant, maxRulePageSize, type DetectionRuleService } from '../../services/index.js';
import { definitionOfApiFields, effectiveState, isEnabled, printRuleFile, type RuleFieldsInput } from '../../detections/index.js';
import type { DetectionRuleRecord, DetectionRuleSummary } from '../../store/index.js';
import { actorOf, apiKeyOf, tenantOf, visibleTenants } from '../auth.js';
import { listRequestOf, readGetBody } from '../list-request.js';
import { readPublishedRuleSpellings } from '../published-spellings.js';
import {
  DeletedResponse,
  DetectionRuleCreateBody,
  DetectionRuleListQuery,
  DetectionRuleListResponse,
  DetectionRuleResponse,
  DetectionRuleUpdateBody,
  type DetectionRuleObject,
} from '../detection-schemas.js';
import { ErrorBody, IdParams, TenantOnlyQuery, errorResponses } from '../schemas.js';

/**
 * The public shape of a rule (docs/interface.md 2.3). The create response shows `enabled` and
 * `enabled_override` in place of the state pair; get, list and update show the pair and also
 * `enabled` (true when the rule runs), which the published SDK's models require
 * (docs/compatibility.md); list items have no `event_sink_ids`.
 */
export function toDetectionRuleObject(rule: DetectionRuleRecord, form: 'created' | 'full'): DetectionRuleObject;
export function toDetectionRuleObject(rule: DetectionRuleSummary, form: 'listed'): DetectionRuleObject;
export function toDetectionRuleObject(rule: DetectionRuleSummary | DetectionRuleRecord, form: 'created' | 'full' | 'listed'): DetectionRuleObject {
  const state =
    form === 'created'
      ? // A rule made through the API has no synced state, so nothing overrides anything yet.
        { enabled: isEnabled(effectiveState(rule)), enabled_override: null }
      : { enabled_state_override: rule.enabledStateOverride, enabled_state_synced: rule.enabledStateSynced, enabled: isEnabled(effectiveState(rule)) };
  return {
    id: rule.id,
    tenant_id: rule.tenantId,
    name: rule.name,
    description: rule.description,
    query_text: rule.queryText,
    time_range_s: rule.timeRangeS,
    run_frequency_s: rule.runFrequencyS,
    debounce: rule.debounce,
    alert_per_row: rule.alertPerRow,
    dedup_window_s: rule.dedupWindowS,
    ...state,
    severity: rule.severity,
    alert_template:
      rule.alertTemplate === null
        ? null
        : {
            info: rule.alertTemplate.info.map((i) => ({ label: i.label, value: i.value, use_for_dedup: i.useForDedup })),
            actions: rule.alertTemplate.actions.map((a) => ({ label: a.label, value: a.value })),
          },
    tags: [...rule.tags],
    sync_key: rule.syncKey,
    detection_rule_sync_id: rule.detectionRuleSyncId,
    prepared_query_id: rule.preparedQueryId,
    author_user_id: rule.authorUserId,
    created_at: formatApiTimestamp(rule.createdAt),
    updated_at: formatApiTimestamp(rule.updatedAt),
    last_alerted_at: rule.lastAlertedAt === null ? null : formatApiTimestamp(rule.lastAlertedAt),
    ...(form !== 'listed' && 'eventSinkIds' in rule ? { event_sink_ids: [...rule.eventSinkIds] } : {}),
  };
}

function ruleInputOf(body: Omit<Partial<DetectionRuleCreateBody>, 'enabled_state_override'> & Pick<DetectionRuleUpdateBody, 'enabled_state_override'>): RuleFieldsInput {
  return {
    name: body.name,
    description: body.description,
    queryText: body.query_text,
    timeRangeS: body.time_range_s,
    runFrequencyS: body.run_frequency_s,
    debounce: body.debounce,
    alertPerRow: body.alert_per_row,
    dedupWindowS: body.dedup_window_s,
    enabledStateOverride: body.enabled_state_override,
    severity: body.severity,
    alertTemplate: body.alert_template,
    tags: body.tags,
    syncKey: body.sync_key,
    eventSinkIds: body.event_sink_ids,
  };
}

const responses = { ...errorResponses, 409: Type.Ref(ErrorBody) };

/** `/v1/detection_rule` (docs/interface.md 4.2). Ids of rules the key cannot see answer 404, like unknown ones. */
export function registerDetectionRuleRoutes(app: FastifyInstance, rules: DetectionRuleService, maxJsonBodyBytes: number): void {
  const visible = (request: Parameters<typeof apiKeyOf>[0]) => {
    const key = apiKeyOf(request);
    return (tenantId: string) => keyHoldsTenant(key, tenantId);
  };

  app.post<{ Body: DetectionRuleCreateBody }>(
    '/v1/detection_rule',
    {
      schema: { summary: 'Create a detection rule', tags: ['detection rules'], body: DetectionRuleCreateBody, response: { 200: DetectionRuleResponse, ...responses } },
      preValidation: readPublishedRuleSpellings,
    },
    async (request) => {
      const { tenant_id: given, ...body } = request.body;
      const rule = await rules.create(tenantOf(request, given), ruleInputOf(body), actorOf(request), apiKeyOf(request).name);
      return { detection_rule: toDetectionRuleObject(rule, 'created') };
    },
  );

  app.get<{ Querystring: DetectionRuleListQuery }>(
    '/v1/detection_rule',
    {
      schema: {
        summary: 'List the detection rules of a tenant',
        description: 'The tenant and page may also come in a JSON body, as the published SDK sends them: {"tenant_id", "pagination": {"page_size", "page_token"}}',
        tags: ['detection rules'],
        querystring: DetectionRuleListQuery,
        response: { 200: DetectionRuleListResponse, ...errorResponses },
      },
      preValidation: readGetBody(maxJsonBodyBytes),
    },
    async (request, reply) => {
      const { tenantId, pageSize, pageToken } = listRequestOf(request, reply, 50, maxRulePageSize);
      const page = await rules.list(tenantId, pageSize, pageToken);
      return { data: { detection_rules: page.items.map((rule) => toDetectionRuleObject(rule, 'listed')) }, pagination: { next_page_token: page.nextPageToken } };
    },
  );

  app.get<{ Params: IdParams }>(
    '/v1/detection_rule/:id',
    { schema: { summary: 'Read one detection rule', tags: ['detection rules'], params: IdParams, response: { 200: DetectionRuleResponse, ...errorResponses } } },
    async (request) => ({ detection_rule: toDetectionRuleObject(await rules.find(request.params.id, visible(request)), 'full') }),
  );

  app.get<{ Params: IdParams }>(
    '/v1/detection_rule/:id/yaml',
    {
      schema: {
        summary: 'A rule as a rule file (YAML), for an editor; its sinks are not in it (files name sink keys, not sink ids)',
        tags: ['detection rules'],
        params: IdParams,
        response: { 200: { description: 'The rule file', content: { 'application/yaml': { schema: { type: 'string' } } } }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const rule = await rules.find(request.params.id, visible(request));
      const object = toDetectionRuleObject(rule, 'full');
      return reply.type('application/yaml; charset=utf-8').send(printRuleFile(definitionOfApiFields({ ...object, enabled_state_override: rule.enabledStateOverride })));
    },
  );

  app.get<{ Params: { '*': string }; Querystring: { tenant_id?: string } }>(
    '/v1/detection_rule_by_sync_key/*',
    {
      schema: {
        summary: 'Read the detection rule with this sync key',
        description: 'The key is the rest of the path (it may hold /). Among the tenants the key holds, or tenant_id alone',
        tags: ['detection rules'],
        querystring: TenantOnlyQuery,
        response: { 200: DetectionRuleResponse, ...errorResponses },
      },
    },
    async (request) => {
      const syncKey = request.params['*'];
      if (syncKey === '') throw new ValidationError('give the sync key after /v1/detection_rule_by_sync_key/', { field: 'sync_key' });
      return { detection_rule: toDetectionRuleObject(await rules.findBySyncKey(syncKey, visibleTenants(request, request.query.tenant_id)), 'full') };
    },
  );

  app.put<{ Params: IdParams; Body: DetectionRuleUpdateBody }>(
    '/v1/detection_rule/:id',
    {
      schema: {
        summary: 'Update a detection rule (synced rules: enabled_state_override only)',
        tags: ['detection rules'],
        params: IdParams,
        body: DetectionRuleUpdateBody,
        response: { 200: DetectionRuleResponse, ...responses },
      },
      preValidation: readPublishedRuleSpellings,
    },
    async (request) => {
      const { id, ...body } = request.body;
      if (id !== request.params.id) throw new ValidationError(`id ${JSON.stringify(id)} does not match the id in the path`, { field: 'id' });
      const rule = await rules.update(request.params.id, ruleInputOf(body), visible(request), actorOf(request));
      return { detection_rule: toDetectionRuleObject(rule, 'full') };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/v1/detection_rule/:id',
    { schema: { summary: 'Delete a detection rule', tags: ['detection rules'], params: IdParams, response: { 200: DeletedResponse, ...errorResponses } } },
    async (request) => {
      const rule = await rules.delete(request.params.id, visible(request), actorOf(request));
      return { id: rule.id, tenant_id: rule.tenantId };
    },
  );
}
