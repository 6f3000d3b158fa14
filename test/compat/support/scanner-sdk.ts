/**
 * The requests of the published Python SDK, `scanner-client` 0.1.1 (PyPI, 2026-05), as its
 * wrappers (`scanner_client/detection_rule.py`, `event_sink.py`, `query.py`,
 * `detection_rule_yaml.py`, `github_sync.py`) and generated request builders
 * (`_get_kwargs` of each `raw_api/api` module) put them on the wire through httpx: `AuthenticatedClient` adds
 * `Authorization: Bearer <key>`; a model body is sent with `json=` and `Content-Type:
 * application/json` (also on the list GETs); a `str` body (rule YAML) with `content=` as
 * `text/plain`; ids go through `uuid.UUID()` first, optional fields left UNSET are not sent.
 */
import { httpxHeaders, httpxJson, httpxQuery, replay, type Replayed, type WireRequest } from './replay.js';
import * as models from './scanner-sdk-models.js';

export type Severity = (typeof models.severities)[number];

export class ScannerSdk {
  /** Every request sent, for tests that check the wire. */
  readonly sent: WireRequest[] = [];

  constructor(
    private readonly apiUrl: string,
    private readonly apiKey: string,
  ) {}

  private async send(method: WireRequest['method'], path: string, body?: { json: unknown } | { text: string; type: string }): Promise<Replayed> {
    const own: Record<string, string> = { authorization: `Bearer ${this.apiKey}` };
    let payload: string | undefined;
    if (body && 'json' in body) {
      own['content-type'] = 'application/json';
      payload = httpxJson(body.json);
    } else if (body) {
      own['content-type'] = body.type;
      payload = body.text;
    }
    const wire: WireRequest = { method, path, headers: httpxHeaders(own), ...(payload === undefined ? {} : { body: payload }) };
    this.sent.push(wire);
    return replay(this.apiUrl, wire);
  }

  /** UNSET fields are left out of `to_dict()`. */
  private static defined(fields: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  }

  // detection_rule.py

  async listRules(tenantId: string, pagination?: { page_token?: string | null; page_size?: number }) {
    const body = ScannerSdk.defined({ tenant_id: models.pyUuid(tenantId, 'tenant_id'), pagination: pagination && ScannerSdk.defined(pagination) });
    return models.sdkBody(await this.send('GET', '/v1/detection_rule', { json: body }), models.ListDetectionRulesResponse);
  }

  /** `list_all_iter`: follows `pagination.next_page_token` while it is a string. */
  async listAllRules(tenantId: string) {
    const first = await this.listRules(tenantId);
    const rules = [...(first.data.detection_rules ?? [])];
    let pagination = first.pagination;
    while (pagination && typeof pagination.next_page_token === 'string') {
      const next = await this.listRules(tenantId, { page_token: pagination.next_page_token });
      rules.push(...(next.data.detection_rules ?? []));
      pagination = next.pagination;
    }
    return rules;
  }

  async createRule(input: {
    tenant_id: string;
    name: string;
    description: string;
    time_range_s: number;
    run_frequency_s: number;
    enabled: boolean;
    severity: Severity;
    query_text: string;
    event_sink_ids: string[];
    starting_permissions?: unknown;
    sync_key?: string | null;
  }) {
    // CreateDetectionRuleRequestData.to_dict(): `debounce` has no UNSET default in the wrapper's
    // call, so it is sent as its default (True) beside the given fields.
    const body = ScannerSdk.defined({
      description: input.description,
      event_sink_ids: input.event_sink_ids.map((id) => models.pyUuid(id, 'event_sink_ids')),
      name: input.name,
      query_text: input.query_text,
      run_frequency_s: input.run_frequency_s,
      tenant_id: models.pyUuid(input.tenant_id, 'tenant_id'),
      time_range_s: input.time_range_s,
      debounce: true,
      enabled: input.enabled,
      severity: input.severity,
      starting_permissions: input.starting_permissions,
      sync_key: input.sync_key,
    });
    return models.sdkBody(await this.send('POST', '/v1/detection_rule', { json: body }), models.GetDetectionRuleResponseData).detection_rule;
  }

  async getRule(id: string) {
    return models.sdkBody(await this.send('GET', `/v1/detection_rule/${models.pyUuid(id, 'id')}`), models.GetDetectionRuleResponseData).detection_rule;
  }

  async getRuleBySyncKey(syncKey: string) {
    return models.sdkBody(await this.send('GET', `/v1/detection_rule_by_sync_key/${syncKey}`), models.GetDetectionRuleSummaryResponseData).detection_rule;
  }

  async updateRule(id: string, fields: { name?: string; description?: string; time_range_s?: number; run_frequency_s?: number; enabled?: boolean; severity?: Severity; query_text?: string; event_sink_ids?: string[]; sync_key?: string | null }) {
    const body = ScannerSdk.defined({ id: models.pyUuid(id, 'id'), ...fields });
    return models.sdkBody(await this.send('PUT', `/v1/detection_rule/${id}`, { json: body }), models.GetDetectionRuleResponseData).detection_rule;
  }

  async deleteRule(id: string) {
    return models.sdkBody(await this.send('DELETE', `/v1/detection_rule/${models.pyUuid(id, 'id')}`), (v) => models.DeleteResponseData(v, 'DeleteDetectionRuleResponseData'));
  }

  // event_sink.py

  async listSinks(tenantId: string) {
    const response = await this.send('GET', '/v1/event_sink', { json: { tenant_id: models.pyUuid(tenantId, 'tenant_id') } });
    return models.sdkBody(response, models.ListEventSinksResponse).data.event_sinks ?? [];
  }

  /** `event_sink_args` as create_{pagerduty,slack,webhook}_event_sink_args build them. */
  async createSink(tenantId: string, name: string, description: string, eventSinkArgs: Record<string, unknown>) {
    const body = { tenant_id: models.pyUuid(tenantId, 'tenant_id'), name, description, event_sink_args: eventSinkArgs };
    return models.sdkBody(await this.send('POST', '/v1/event_sink', { json: body }), models.GetEventSinkResponseData).event_sink;
  }

  async getSink(id: string) {
    return models.sdkBody(await this.send('GET', `/v1/event_sink/${models.pyUuid(id, 'id')}`), models.GetEventSinkResponseData).event_sink;
  }

  async updateSink(id: string, fields: { name?: string; description?: string; event_sink_args?: Record<string, unknown> }) {
    const body = ScannerSdk.defined({ id: models.pyUuid(id, 'id'), ...fields });
    return models.sdkBody(await this.send('PUT', `/v1/event_sink/${id}`, { json: body }), models.GetEventSinkResponseData).event_sink;
  }

  async deleteSink(id: string) {
    return models.sdkBody(await this.send('DELETE', `/v1/event_sink/${models.pyUuid(id, 'id')}`), (v) => models.DeleteResponseData(v, 'DeleteEventSinkResponseData'));
  }

  // query.py: StartAdHocQueryRequestData has no tenant_id (the key's tenant answers).

  async startQuery(queryText: string, options: { start_time?: string; end_time?: string; start_leid?: unknown; end_leid?: unknown; scan_back_to_front?: boolean; max_rows?: number; max_bytes?: number } = {}) {
    const body = ScannerSdk.defined({ query: queryText, ...options });
    return models.sdkBody(await this.send('POST', '/v1/start_query', { json: body }), models.StartAdHocQueryResponse);
  }

  /** raw_api/api/query/query_progress.py: AdHocQueryProgressRequestData as params (httpx writes True as `true`). */
  async queryProgress(qrId: string, showIntermediateResults?: boolean) {
    const query = httpxQuery({ show_intermediate_results: showIntermediateResults });
    return models.sdkBody(await this.send('GET', `/v1/query_progress/${models.pyUuid(qrId, 'qr_id')}${query}`), models.AdHocQueryProgressResponse);
  }

  async blockingQuery(queryText: string, options: Parameters<ScannerSdk['startQuery']>[1] = {}) {
    const body = ScannerSdk.defined({ query: queryText, ...options });
    return models.sdkBody(await this.send('POST', '/v1/blocking_query', { json: body }), models.AdHocQueryProgressResponse);
  }

  // detection_rule_yaml.py: the file's text as the body.

  async validateYaml(contents: string) {
    return models.sdkBody(await this.send('POST', '/v1/detection_rule_yaml/validate', { text: contents, type: 'text/plain' }), models.ValidateDetectionRuleYamlResponseData);
  }

  async runYamlTests(contents: string) {
    return models.sdkBody(await this.send('POST', '/v1/detection_rule_yaml/run_tests', { text: contents, type: 'text/plain' }), models.RunDetectionRuleYamlTestsResponseData);
  }

  // github_sync.py

  async syncGithubRepositories(tenantId: string) {
    const response = await this.send('POST', '/v1/sync_github_repositories', { json: { tenant_id: models.pyUuid(tenantId, 'tenant_id') } });
    return { body: models.sdkBody(response, models.SyncGithubReposResponseData), warning: response.headers.warning };
  }

  // raw_api/api/lookup_table_file (the models of the lookup-table release; no wrapper class)

  async listLookupTables(tenantId: string) {
    const query = httpxQuery({ tenant_id: models.pyUuid(tenantId, 'tenant_id') });
    return models.sdkBody(await this.send('GET', `/v1/lookup_table_file${query}`), models.ListLookupTableFilesResponse).data.lookup_table_files ?? [];
  }

  async getLookupTable(id: string) {
    return models.sdkBody(await this.send('GET', `/v1/lookup_table_file/${models.pyUuid(id, 'id')}`), models.GetLookupTableFileResponseData).lookup_table_file;
  }

  async updateLookupTable(id: string, description: string | null) {
    const response = await this.send('PUT', `/v1/lookup_table_file/${models.pyUuid(id, 'id')}`, { json: { id, description } });
    return models.sdkBody(response, models.GetLookupTableFileResponseData).lookup_table_file;
  }

  async deleteLookupTable(id: string) {
    return models.sdkBody(await this.send('DELETE', `/v1/lookup_table_file/${models.pyUuid(id, 'id')}`), (v) => models.DeleteResponseData(v, 'DeleteLookupTableFileResponseData'));
  }
}
