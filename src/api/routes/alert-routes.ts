import type { FastifyInstance } from 'fastify';
import { formatApiTimestamp, formatRfc3339Ns } from '../../core/index.js';
import { keyHoldsTenant, type AlertDetail, type AlertService } from '../../services/index.js';
import type { AlertDeliveryRecord, AlertRecord, DeliveryAttemptRecord } from '../../store/index.js';
import { AlertListQuery, AlertListResponse, AlertResponse, type AlertObject } from '../alert-schemas.js';
import { apiKeyOf, actorOf, assertTenantAccess } from '../auth.js';
import { IdParams, errorResponses } from '../schemas.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** The public shape of an alert; `detail` adds the result table and every attempt. */
export function toAlertObject(alert: AlertRecord, deliveries: readonly AlertDeliveryRecord[], attempts: readonly DeliveryAttemptRecord[] | null): AlertObject {
  const message = alert.payload;
  return {
    id: alert.id,
    tenant_id: alert.tenantId,
    detection_rule_id: alert.ruleId,
    name: alert.ruleName,
    severity: alert.severity,
    severity_id: message.severityId,
    status: alert.status,
    detected_in_time_range: { start: message.window.start, end: message.window.end },
    timestamp: formatRfc3339Ns(BigInt(message.timestampNs)),
    dedup_key: alert.dedupKey,
    tags: [...message.tags],
    info: message.info.map(({ label, value }) => ({ label, value })),
    actions: message.actions.map(({ label, value }) => ({ label, value })),
    ...(attempts === null
      ? {}
      : {
          results_table: {
            columns: [...message.resultsTable.columns],
            rows: message.resultsTable.rows.map((r) => ({ ...r })),
            total_row_count: message.resultsTable.totalRowCount,
          },
        }),
    created_at: formatApiTimestamp(alert.createdAt),
    updated_at: formatApiTimestamp(alert.updatedAt),
    deliveries: deliveries.map((d) => ({
      id: d.id,
      event_sink_id: d.sinkId,
      event_sink_type: d.sinkType,
      status: d.status,
      attempt_count: d.attempts,
      next_attempt_at: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
      delivered_at: d.deliveredAt === null ? null : iso(d.deliveredAt),
      last_http_status: d.lastHttpStatus,
      last_error: d.lastError,
      ...(attempts === null
        ? {}
        : {
            attempts: attempts
              .filter((a) => a.deliveryId === d.id)
              .map((a) => ({ at: iso(a.at), outcome: a.outcome, http_status: a.httpStatus, latency_ms: a.latencyMs, error: a.error })),
          }),
    })),
  };
}

/** The detail form of an alert. */
export function toAlertDetailObject(detail: AlertDetail): AlertObject {
  return toAlertObject(detail.alert, detail.deliveries, detail.attempts);
}

/** `/v1/alert`: alerts with their deliveries and attempts, tenant-scoped like rules and sinks. */
export function registerAlertRoutes(app: FastifyInstance, alerts: AlertService): void {
  const visible = (request: Parameters<typeof apiKeyOf>[0]) => {
    const key = apiKeyOf(request);
    return (tenantId: string) => keyHoldsTenant(key, tenantId);
  };

  app.get<{ Querystring: AlertListQuery }>(
    '/v1/alert',
    {
      schema: {
        summary: 'List the alerts of a tenant, newest first, with their deliveries',
        tags: ['alerts'],
        querystring: AlertListQuery,
        response: { 200: AlertListResponse, ...errorResponses },
      },
    },
    async (request) => {
      const query = request.query;
      assertTenantAccess(request, query.tenant_id);
      const token = query['pagination[page_token]'];
      const page = await alerts.list(query.tenant_id, query['pagination[page_size]'] ?? 50, token === '' ? undefined : token, {
        ...(query.detection_rule_id ? { ruleId: query.detection_rule_id } : {}),
        ...(query.status ? { status: query.status } : {}),
      });
      const items = await Promise.all(page.items.map(async (alert) => toAlertObject(alert, await alerts.deliveriesOf(alert.id), null)));
      return { data: { alerts: items }, pagination: { next_page_token: page.nextPageToken } };
    },
  );

  app.get<{ Params: IdParams }>(
    '/v1/alert/:id',
    {
      schema: {
        summary: 'Read one alert with its result table and every delivery attempt',
        tags: ['alerts'],
        params: IdParams,
        response: { 200: AlertResponse, ...errorResponses },
      },
    },
    async (request) => ({ alert: toAlertDetailObject(await alerts.find(request.params.id, visible(request))) }),
  );

  app.post<{ Params: IdParams }>(
    '/v1/alert/:id/resend',
    {
      schema: {
        summary: 'Re-queue every delivery of an alert (409 when it has none: suppressed, or no sinks)',
        tags: ['alerts'],
        params: IdParams,
        response: { 200: AlertResponse, ...errorResponses },
      },
    },
    async (request) => ({ alert: toAlertDetailObject(await alerts.resend(request.params.id, visible(request), actorOf(request))) }),
  );
}
