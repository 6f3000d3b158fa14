import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../core/index.js';
import type { AlertMessage } from '../domain/index.js';
import { displayInfo } from './alert-display.js';
import { delivered, permanent, retryable, type DeliveryOutcome } from './delivery-outcome.js';
import { statusError, type HttpPoster } from './http-poster.js';
import { parseRetryAfter } from './retry-after.js';
import type { Sink } from './sink.js';

export interface WebhookSinkConfig {
  readonly url: string;
  /** The operator's extra headers (their values are secrets). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Key of `X-Vigil-Signature`; absent means unsigned. */
  readonly signingSecret?: string;
}

/**
 * The webhook body of detections.md E10 (the shape of 5.2): the alert's fields, `timestamp` as an
 * integer of nanoseconds (written as raw digits: it passes 2^53), and the rendered template.
 */
export function webhookBody(alert: AlertMessage): string {
  // JSON.stringify cannot write an integer beyond 2^53, so a unique placeholder stands in for it.
  const placeholder = `vigil-ns-${randomBytes(8).toString('hex')}`;
  const body = {
    id: alert.id,
    detection_rule_id: alert.detectionRuleId,
    tenant_id: alert.tenantId,
    severity: alert.severity,
    severity_id: alert.severityId,
    name: alert.name,
    description: alert.description,
    query_text: alert.queryText,
    tags: alert.tags,
    detected_in_time_range: { start: alert.window.start, end: alert.window.end },
    timestamp: placeholder,
    staging: alert.staging,
    results_table: { columns: alert.resultsTable.columns, rows: alert.resultsTable.rows, total_row_count: alert.resultsTable.totalRowCount },
    info: displayInfo(alert).map(({ label, value }) => ({ label, value })),
    actions: alert.actions.map(({ label, value }) => ({ label, value })),
  };
  return JSON.stringify(body).replace(`"${placeholder}"`, /^\d+$/.test(alert.timestampNs) ? alert.timestampNs : '0');
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (detections.md E10). */
function webhookSignature(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * POSTs the alert as JSON (E10). Any 2xx is delivered. 408, 425, 429 and 5xx are retried
 * (honouring Retry-After), as are network errors and time-outs; other statuses are permanent:
 * the receiver refused this request and would refuse it again. Redirects count as permanent too,
 * since following one could lead past the destination policy.
 */
export class WebhookSink implements Sink {
  readonly type = 'Webhook' as const;

  constructor(
    private readonly config: WebhookSinkConfig,
    private readonly http: HttpPoster,
    private readonly clock: Clock,
  ) {}

  async send(alert: AlertMessage, signal?: AbortSignal): Promise<DeliveryOutcome> {
    const body = webhookBody(alert);
    const headers: Record<string, string> = {
      ...this.config.headers,
      'content-type': 'application/json',
      'x-vigil-alert-id': alert.id,
    };
    if (this.config.signingSecret !== undefined) {
      headers['x-vigil-signature'] = webhookSignature(this.config.signingSecret, Math.floor(this.clock.nowMs() / 1000), body);
    }
    return this.http.deliver(this.config.url, headers, body, signal, (response) => {
      const { status, latencyMs } = response;
      if (status >= 200 && status < 300) return delivered(status, latencyMs);
      if (status === 408 || status === 425 || status === 429 || status >= 500) {
        return retryable(status, latencyMs, statusError(response), parseRetryAfter(response.headers['retry-after'], this.clock.nowMs()));
      }
      return permanent(status, latencyMs, statusError(response));
    });
  }
}
