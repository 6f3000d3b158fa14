import type { Clock } from '../core/index.js';
import type { AlertMessage } from '../domain/index.js';
import { chatMessage } from './chat-message.js';
import { delivered, permanent, retryable, type DeliveryOutcome } from './delivery-outcome.js';
import { bodySummary, statusError, type HttpPoster } from './http-poster.js';
import { parseRetryAfter } from './retry-after.js';
import type { Sink } from './sink.js';

/** The Slack Web API, used when an integration names no other base URL. */
export const defaultChatApiUrl = 'https://slack.com/api';

export interface ChatSinkConfig {
  /** The Web API base URL, without the method: `https://slack.com/api`. */
  readonly apiUrl: string;
  /** The integration's bot token (`xoxb-…`): a secret. */
  readonly token: string;
  /** A channel id, or the deprecated channel name, sent as given (E11). */
  readonly channel: string;
}

const retryableErrors = new Set(['rate_limited', 'ratelimited']);

/**
 * Posts through `chat.postMessage` with Block Kit (detections.md E11). `ok:true` is delivered.
 * HTTP 429 (honouring Retry-After), `ok:false` with `rate_limited`, 5xx, network errors and
 * unreadable answers are retried; every other `ok:false` error (`channel_not_found`,
 * `invalid_auth`, …) and other HTTP errors are permanent.
 */
export class ChatSink implements Sink {
  readonly type = 'Chat' as const;

  constructor(
    private readonly config: ChatSinkConfig,
    private readonly http: HttpPoster,
    private readonly clock: Clock,
  ) {}

  async send(alert: AlertMessage, signal?: AbortSignal): Promise<DeliveryOutcome> {
    const message = chatMessage(alert);
    const body = JSON.stringify({ channel: this.config.channel, text: message.text, blocks: message.blocks, unfurl_links: false, unfurl_media: false });
    const url = `${this.config.apiUrl.replace(/\/+$/, '')}/chat.postMessage`;
    const headers = { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${this.config.token}` };
    return this.http.deliver(url, headers, body, signal, (response) => {
      const { status, latencyMs } = response;
      const retryAfter = parseRetryAfter(response.headers['retry-after'], this.clock.nowMs());
      if (status === 429) return retryable(status, latencyMs, 'HTTP 429: rate limited', retryAfter);
      if (status >= 500) return retryable(status, latencyMs, statusError(response), retryAfter);
      if (status < 200 || status >= 300) return permanent(status, latencyMs, statusError(response));
      let answer: { ok?: unknown; error?: unknown };
      try {
        answer = JSON.parse(response.body) as { ok?: unknown; error?: unknown };
      } catch {
        return retryable(status, latencyMs, `unreadable answer${bodySummary(response.body)}`, retryAfter);
      }
      if (answer.ok === true) return delivered(status, latencyMs);
      const code = typeof answer.error === 'string' ? answer.error : 'unknown_error';
      return retryableErrors.has(code) ? retryable(status, latencyMs, `ok:false ${code}`, retryAfter) : permanent(status, latencyMs, `ok:false ${code}`);
    });
  }
}
