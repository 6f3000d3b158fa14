/**
 * The query endpoints of a running server as the API bench calls them: fetch (undici, whose
 * global dispatcher keeps connections alive), each call timed client-side from just before the
 * request until its whole body has arrived; the body is parsed after the clock stops.
 */
import type { AdhocQueryBody } from '../src/search/index.js';

/** One answered call: client-side milliseconds and the parts of the answer the bench reads. */
export interface TimedAnswer<T> {
  readonly ms: number;
  readonly status: number;
  readonly body: T;
  readonly bytes: number;
}

/** `{is_completed, results, metadata}` of `blocking_query` and `query_progress`. */
export interface QueryAnswer {
  readonly is_completed?: boolean;
  readonly results?: { readonly rows?: readonly unknown[] };
  readonly metadata?: { readonly n_bytes_scanned?: number };
  readonly error?: string;
}

export class QueryApiClient {
  constructor(
    readonly url: string,
    private readonly apiKey: string,
  ) {}

  /** `POST /v1/blocking_query`; `requestId` goes out as `x-request-id`, which the server logs. */
  blocking(body: AdhocQueryBody, requestId: string): Promise<TimedAnswer<QueryAnswer>> {
    return this.call('POST', '/v1/blocking_query', requestId, body);
  }

  /** `POST /v1/start_query`. */
  start(body: AdhocQueryBody, requestId: string): Promise<TimedAnswer<{ qr_id?: string; error?: string }>> {
    return this.call('POST', '/v1/start_query', requestId, body);
  }

  /** `GET /v1/query_progress/{id}`, with or without the rows found so far. */
  progress(qrId: string, showRows: boolean, requestId: string): Promise<TimedAnswer<QueryAnswer>> {
    return this.call('GET', `/v1/query_progress/${encodeURIComponent(qrId)}${showRows ? '' : '?show_intermediate_results=false'}`, requestId);
  }

  /** `POST /v1/cancel_query/{id}` (204 whatever the state). */
  async cancel(qrId: string): Promise<void> {
    await this.call('POST', `/v1/cancel_query/${encodeURIComponent(qrId)}`, `cancel-${qrId}`);
  }

  private async call<T>(method: 'GET' | 'POST', path: string, requestId: string, body?: unknown): Promise<TimedAnswer<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, 'x-request-id': requestId };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    const response = await fetch(`${this.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const raw = await response.arrayBuffer();
    const ms = performance.now() - started;
    const text = Buffer.from(raw).toString('utf8');
    return { ms, status: response.status, body: (text === '' ? {} : JSON.parse(text)) as T, bytes: raw.byteLength };
  }
}

/** Throws with the server's own message unless the answer is a 2xx. */
export function expectOk<T>(answer: TimedAnswer<T & { error?: string }>, what: string): T {
  if (answer.status < 200 || answer.status > 299) throw new Error(`${what} answered ${answer.status}: ${answer.body.error ?? '(no message)'}`);
  return answer.body;
}
