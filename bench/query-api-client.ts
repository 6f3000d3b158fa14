/**
 * The query endpoints of a running server as the API bench calls them: node:http over
 * keep-alive connections, each call timed client-side from just before the request until its
 * whole body has arrived; the body is parsed after the clock stops. The clients share the
 * server's two cores, so they are kept lean: fetch (undici) took about 1.8 ms of CPU per call
 * against 0.7 ms for node:http, CPU the server's requests then waited for.
 */
import { Agent, request } from 'node:http';
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
  private readonly agent = new Agent({ keepAlive: true });

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

  private call<T>(method: 'GET' | 'POST', path: string, requestId: string, body?: unknown): Promise<TimedAnswer<T>> {
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body), 'utf8');
    const headers: Record<string, string | number> = { authorization: `Bearer ${this.apiKey}`, 'x-request-id': requestId };
    if (payload !== null) Object.assign(headers, { 'content-type': 'application/json', 'content-length': payload.length });
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request(new URL(path, this.url), { method, headers, agent: this.agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const ms = performance.now() - started;
          const raw = Buffer.concat(chunks);
          const text = raw.toString('utf8');
          try {
            resolve({ ms, status: response.statusCode ?? 0, body: (text === '' ? {} : JSON.parse(text)) as T, bytes: raw.length });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      });
      req.on('error', reject);
      req.end(payload ?? undefined);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}

/** Throws with the server's own message unless the answer is a 2xx. */
export function expectOk<T>(answer: TimedAnswer<T & { error?: string }>, what: string): T {
  if (answer.status < 200 || answer.status > 299) throw new Error(`${what} answered ${answer.status}: ${answer.body.error ?? '(no message)'}`);
  return answer.body;
}
