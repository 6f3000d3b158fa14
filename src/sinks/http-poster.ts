import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { messageOf } from '../core/index.js';
import { permanent, retryable, type DeliveryOutcome } from './delivery-outcome.js';
import type { DestinationPolicy } from './destination-policy.js';

export interface HttpPostResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The response body as text, cut at 64 KiB: sinks read only status codes and small JSON answers. */
  readonly body: string;
  readonly latencyMs: number;
}

/** Why a POST did not get an HTTP answer; `permanent` when trying again cannot help (a refused destination). */
class HttpPostError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly latencyMs: number,
  ) {
    super(message);
    this.name = 'HttpPostError';
  }
}

export interface HttpPosterOptions {
  /** Whole request, connection to last body byte. */
  readonly timeoutMs: number;
  /** `vigil/<version>`. */
  readonly userAgent: string;
  /** Name resolution; default `dns.lookup` (tests substitute their own answers). */
  readonly resolve?: typeof dnsLookup;
}

const maxResponseBytes = 64 * 1024;

class BlockedDestinationError extends Error {}

/**
 * POSTs bodies to sink destinations under the DestinationPolicy. The URL is checked again at send
 * time, and every address a name resolves to goes through `checkResolvedAddress` before the
 * connection opens (a custom DNS lookup), so a public name that resolves to a private or metadata
 * address is refused. Redirects are not followed: a redirect could lead past the policy.
 */
export class HttpPoster {
  constructor(
    private readonly policy: DestinationPolicy,
    private readonly options: HttpPosterOptions,
  ) {}

  /** One POST; HttpPostError when no HTTP answer came (network, timeout, refused destination). */
  private async post(target: string, headers: Readonly<Record<string, string>>, body: string, signal?: AbortSignal): Promise<HttpPostResponse> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = this.policy.checkUrl(target, 'url');
    } catch (error) {
      throw new HttpPostError(`refused destination: ${messageOf(error)}`, true, elapsed());
    }
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0) {
      const reason = this.policy.checkResolvedAddress(literal);
      if (reason !== null) throw new HttpPostError(`refused destination: ${url.host} is ${reason}`, true, elapsed());
    }
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const abort = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    const payload = Buffer.from(body, 'utf8');
    const requestOptions: RequestOptions = {
      method: 'POST',
      headers: { 'user-agent': this.options.userAgent, ...headers, 'content-length': String(payload.length) },
      lookup: this.lookup,
      signal: abort,
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<HttpPostResponse>((resolve, reject) => {
      const request = send(url, requestOptions, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < maxResponseBytes) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).subarray(0, maxResponseBytes).toString('utf8'),
            latencyMs: elapsed(),
          });
        });
        response.on('error', (error) => reject(this.failure(error, timeout, elapsed())));
      });
      request.on('error', (error) => reject(this.failure(error, timeout, elapsed())));
      request.end(payload);
    });
  }

  /**
   * One POST whose answer `classify` turns into a delivery outcome. A POST without an HTTP answer
   * is permanent when the destination was refused, else retryable (network error, time-out).
   */
  async deliver(
    target: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    signal: AbortSignal | undefined,
    classify: (response: HttpPostResponse) => DeliveryOutcome,
  ): Promise<DeliveryOutcome> {
    let response: HttpPostResponse;
    try {
      response = await this.post(target, headers, body, signal);
    } catch (error) {
      if (error instanceof HttpPostError) return error.permanent ? permanent(null, error.latencyMs, error.message) : retryable(null, error.latencyMs, error.message);
      throw error;
    }
    return classify(response);
  }

  private failure(error: Error, timeout: AbortSignal, latencyMs: number): HttpPostError {
    const cause = (error as { cause?: unknown }).cause ?? error;
    if (cause instanceof BlockedDestinationError) return new HttpPostError(cause.message, true, latencyMs);
    if (timeout.aborted) return new HttpPostError(`no answer within ${this.options.timeoutMs} ms`, false, latencyMs);
    const code = (error as { code?: string }).code;
    return new HttpPostError(code === undefined ? messageOf(error) : `${code}: ${messageOf(error)}`, false, latencyMs);
  }

  /** DNS resolution that refuses any answer the policy blocks (all addresses must pass: a rebinding name may alternate). */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    (this.options.resolve ?? dnsLookup)(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        (callback as (e: Error) => void)(error);
        return;
      }
      const list = addresses as unknown as LookupAddress[];
      for (const entry of list) {
        const reason = this.policy.checkResolvedAddress(entry.address);
        if (reason !== null) {
          (callback as (e: Error) => void)(new BlockedDestinationError(`refused destination: ${hostname} resolves to ${entry.address}, ${reason}`));
          return;
        }
      }
      const first = list[0];
      if (options.all) (callback as (e: null, a: LookupAddress[]) => void)(null, list);
      // eslint-disable-next-line no-restricted-syntax -- the DNS lookup callback's own error, which the sink wraps as a delivery failure
      else if (first === undefined) (callback as (e: Error) => void)(new Error(`${hostname} has no address`));
      else callback(null, first.address, first.family);
    });
  };
}

/** `HTTP <status>: <first 200 characters of the body>` for an answer a sink refuses. */
export function statusError(response: HttpPostResponse): string {
  return `HTTP ${response.status}${bodySummary(response.body)}`;
}

/** `: <first 200 characters of the body>` for error messages, or nothing. */
export function bodySummary(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return text === '' ? '' : `: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
}
