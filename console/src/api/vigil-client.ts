import { apiErrorOf } from './api-error.js';
import type {
  Alert,
  ApiKey,
  DetectionRule,
  EventSink,
  FieldValues,
  IndexFields,
  IndexObject,
  IndexStats,
  Me,
  Page,
  QueryProgress,
  QueryRequest,
  RuleFileValidation,
  RulePreview,
  RuleState,
  RuleTestRun,
  SinkArgs,
  SinkTestResult,
} from './types.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Fetch = (input: string, init: RequestInit) => Promise<Response>;
type Params = Readonly<Record<string, string | number | boolean | null | undefined>>;

/**
 * The console's only door to the server: the public `/v1` API with the signed-in key, scoped to
 * the chosen tenant (`tenant_id` in the query string of reads, in the body of writes). The key
 * goes only in the Authorization header, never in a URL or a message.
 */
export class VigilClient {
  constructor(
    private readonly key: string,
    readonly tenantId: string | null,
    private readonly fetchFn: Fetch = (input, init) => fetch(input, init),
  ) {}

  /** The same key on another tenant. */
  forTenant(tenantId: string): VigilClient {
    return new VigilClient(this.key, tenantId, this.fetchFn);
  }

  me(): Promise<Me> {
    return this.call('GET', '/v1/me', { tenant: false });
  }

  // Indexes and discovery

  async listIndexes(): Promise<IndexObject[]> {
    return this.all((token) => this.page<IndexObject>('/v1/index', 'indexes', token, 1000));
  }

  indexStats(id: string): Promise<IndexStats> {
    return this.call('GET', `/v1/index/${enc(id)}/stats`);
  }

  indexFields(id: string, range?: { start: string; end: string }): Promise<IndexFields> {
    return this.call('GET', `/v1/index/${enc(id)}/fields`, { params: range ? { start_time: range.start, end_time: range.end } : {} });
  }

  updateIndex(id: string, change: { retention_days: number | null; description?: string }): Promise<IndexObject> {
    return this.call('PUT', `/v1/index/${enc(id)}`, { body: change });
  }

  fieldValues(request: { query: string; field: string; start_time: string; end_time: string; limit?: number }): Promise<FieldValues> {
    return this.call('POST', '/v1/field_values', { body: request });
  }

  // Queries and histograms

  async startQuery(request: QueryRequest): Promise<string> {
    return (await this.call<{ qr_id: string }>('POST', '/v1/start_query', { body: request })).qr_id;
  }

  startHistogram(request: QueryRequest & { max_buckets?: number }): Promise<{ qr_id: string; bucket_s: number; start_time?: string; end_time?: string }> {
    return this.call('POST', '/v1/start_histogram', { body: request });
  }

  queryProgress(qrId: string, showIntermediate = true): Promise<QueryProgress> {
    return this.call('GET', `/v1/query_progress/${enc(qrId)}`, { params: { show_intermediate_results: showIntermediate } });
  }

  async cancelQuery(qrId: string): Promise<void> {
    await this.call('POST', `/v1/cancel_query/${enc(qrId)}`);
  }

  // Detection rules

  async listRules(): Promise<DetectionRule[]> {
    return this.all((token) => this.page<DetectionRule>('/v1/detection_rule', 'detection_rules', token, 1000));
  }

  async getRule(id: string): Promise<DetectionRule> {
    return (await this.call<{ detection_rule: DetectionRule }>('GET', `/v1/detection_rule/${enc(id)}`)).detection_rule;
  }

  /** The stored rule as a rule file (YAML), printed by the server. */
  ruleFile(id: string): Promise<string> {
    return this.call('GET', `/v1/detection_rule/${enc(id)}/yaml`, { answer: 'text' });
  }

  async setRuleState(id: string, state: RuleState | null): Promise<DetectionRule> {
    return (await this.call<{ detection_rule: DetectionRule }>('PUT', `/v1/detection_rule/${enc(id)}`, { body: { id, enabled_state_override: state }, tenantInBody: false }))
      .detection_rule;
  }

  validateRuleFile(yaml: string): Promise<RuleFileValidation> {
    return this.call('POST', '/v1/detection_rule_yaml/validate', { text: yaml });
  }

  runRuleTests(yaml: string): Promise<RuleTestRun> {
    return this.call('POST', '/v1/detection_rule_yaml/run_tests', { text: yaml });
  }

  previewRule(request: { start_time: string; end_time: string; rule_id?: string; rule_yaml?: string }): Promise<RulePreview> {
    return this.call('POST', '/v1/detection_rule_preview', { body: request });
  }

  // Alerts

  async listAlerts(filter: { status?: string; detection_rule_id?: string } = {}, pageToken?: string): Promise<Page<Alert>> {
    return this.page<Alert>('/v1/alert', 'alerts', pageToken, 100, filter);
  }

  async getAlert(id: string): Promise<Alert> {
    return (await this.call<{ alert: Alert }>('GET', `/v1/alert/${enc(id)}`)).alert;
  }

  async resendAlert(id: string): Promise<Alert> {
    return (await this.call<{ alert: Alert }>('POST', `/v1/alert/${enc(id)}/resend`)).alert;
  }

  // Sinks

  async listSinks(): Promise<EventSink[]> {
    return this.all((token) => this.page<EventSink>('/v1/event_sink', 'event_sinks', token, 1000));
  }

  async createSink(sink: { name: string; description: string; event_sink_args: SinkArgs }): Promise<EventSink> {
    return (await this.call<{ event_sink: EventSink }>('POST', '/v1/event_sink', { body: sink })).event_sink;
  }

  async updateSink(id: string, change: { name?: string; description?: string; event_sink_args?: SinkArgs }): Promise<EventSink> {
    return (await this.call<{ event_sink: EventSink }>('PUT', `/v1/event_sink/${enc(id)}`, { body: { id, ...change }, tenantInBody: false })).event_sink;
  }

  async deleteSink(id: string): Promise<void> {
    await this.call('DELETE', `/v1/event_sink/${enc(id)}`);
  }

  testSink(id: string): Promise<SinkTestResult> {
    return this.call('POST', `/v1/event_sink/${enc(id)}/test`);
  }

  // Keys (admin)

  async listKeys(): Promise<ApiKey[]> {
    const body = await this.call<{ data?: { api_keys?: ApiKey[] }; api_keys?: ApiKey[] }>('GET', '/v1/api_key', { tenant: false });
    return body.data?.api_keys ?? body.api_keys ?? [];
  }

  createKey(request: { name: string; tenant_ids?: string[]; admin?: boolean }): Promise<{ api_key: ApiKey; key: string }> {
    return this.call('POST', '/v1/api_key', { body: request, tenantInBody: false });
  }

  async revokeKey(id: string): Promise<void> {
    await this.call('DELETE', `/v1/api_key/${enc(id)}`, { tenant: false });
  }

  // Plumbing

  private async page<T>(path: string, collection: string, token: string | undefined, size: number, filter: Params = {}): Promise<Page<T>> {
    const body = await this.call<{ data: Record<string, T[]>; pagination?: { next_page_token: string | null } }>('GET', path, {
      params: { ...filter, 'pagination[page_size]': size, 'pagination[page_token]': token },
    });
    return { items: body.data[collection] ?? [], nextPageToken: body.pagination?.next_page_token ?? null };
  }

  private async all<T>(fetchPage: (token: string | undefined) => Promise<Page<T>>): Promise<T[]> {
    const items: T[] = [];
    let token: string | undefined;
    do {
      const page = await fetchPage(token);
      items.push(...page.items);
      token = page.nextPageToken ?? undefined;
    } while (token);
    return items;
  }

  private async call<T>(
    method: Method,
    path: string,
    options: { params?: Params; body?: object; text?: string; tenant?: boolean; tenantInBody?: boolean; answer?: 'json' | 'text' } = {},
  ): Promise<T> {
    const scoped = options.tenant !== false && this.tenantId !== null;
    const params = new URLSearchParams();
    const inQuery = scoped && (method === 'GET' || method === 'DELETE' || options.text !== undefined || (options.body === undefined && method === 'POST'));
    if (inQuery && !path.includes('/query_progress/') && !path.includes('/cancel_query/')) params.set('tenant_id', this.tenantId!);
    for (const [name, value] of Object.entries(options.params ?? {})) if (value !== undefined && value !== null) params.set(name, String(value));
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}`, accept: options.answer === 'text' ? 'application/yaml, text/plain' : 'application/json' };
    let body: string | undefined;
    if (options.text !== undefined) {
      headers['content-type'] = 'application/yaml';
      body = options.text;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      const withTenant = scoped && options.tenantInBody !== false ? { tenant_id: this.tenantId, ...options.body } : options.body;
      body = JSON.stringify(withTenant);
    }
    const query = params.toString();
    const response = await this.fetchFn(query ? `${path}?${query}` : path, { method, headers, body, cache: 'no-store', credentials: 'omit' });
    if (!response.ok) throw await apiErrorOf(response);
    if (response.status === 204) return undefined as T;
    return (options.answer === 'text' ? await response.text() : await response.json()) as T;
  }
}

function enc(id: string): string {
  return encodeURIComponent(id);
}
