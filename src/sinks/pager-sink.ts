import type { Clock } from '../core/index.js';
import type { AlertMessage } from '../domain/index.js';
import { delivered, permanent, retryable, type DeliveryOutcome } from './delivery-outcome.js';
import { statusError, type HttpPoster } from './http-poster.js';
import { pagerEvent } from './pager-event.js';
import { parseRetryAfter } from './retry-after.js';
import type { Sink } from './sink.js';

/** PagerDuty's Events API, used unless the operator configures another base URL. */
export const defaultPagerApiUrl = 'https://events.pagerduty.com';

export interface PagerSinkConfig {
  /** Base URL; events go to `{apiUrl}/v2/enqueue`. */
  readonly apiUrl: string;
  /** The events API v2 integration key: a secret. */
  readonly integrationKey: string;
}

/**
 * Sends a trigger to PagerDuty's Events API v2 (detections.md E12). 2xx (202) is delivered, 429
 * (honouring Retry-After), 5xx and network errors are retried; 400 and the other statuses are
 * permanent.
 */
export class PagerSink implements Sink {
  readonly type = 'Pager' as const;

  constructor(
    private readonly config: PagerSinkConfig,
    private readonly http: HttpPoster,
    private readonly clock: Clock,
  ) {}

  async send(alert: AlertMessage, signal?: AbortSignal): Promise<DeliveryOutcome> {
    const body = JSON.stringify(pagerEvent(alert, this.config.integrationKey));
    const url = `${this.config.apiUrl.replace(/\/+$/, '')}/v2/enqueue`;
    return this.http.deliver(url, { 'content-type': 'application/json' }, body, signal, (response) => {
      const { status, latencyMs } = response;
      if (status >= 200 && status < 300) return delivered(status, latencyMs);
      if (status === 429 || status >= 500) return retryable(status, latencyMs, statusError(response), parseRetryAfter(response.headers['retry-after'], this.clock.nowMs()));
      return permanent(status, latencyMs, statusError(response));
    });
  }
}
