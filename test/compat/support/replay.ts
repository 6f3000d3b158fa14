/**
 * Sends a request exactly as a published Python client puts it on the wire, over a real socket
 * to a server on 127.0.0.1. `fetch` cannot: it refuses a GET with a body, which the published SDK
 * sends for its list calls. Headers are written as given, in order, beside what every HTTP/1.1
 * client adds (Host, Content-Length).
 */
import { request as httpRequest } from 'node:http';

export interface Replayed {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body parsed as JSON (as `response.json()` does), or undefined when it is not JSON. */
  readonly json: any;
}

export interface WireRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path and query string, as the client encodes them. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Buffer;
}

export function replay(baseUrl: string, wire: WireRequest): Promise<Replayed> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const body = wire.body === undefined ? undefined : Buffer.isBuffer(wire.body) ? wire.body : Buffer.from(wire.body, 'utf8');
    const headers: Record<string, string> = { ...wire.headers, ...(body === undefined ? {} : { 'content-length': String(body.length) }) };
    const req = httpRequest({ host: url.hostname, port: url.port, method: wire.method, path: wire.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The query string httpx writes for `params` (booleans as `true`/`false`, None left out, keys in order). */
export function httpxQuery(params: Record<string, string | number | boolean | null | undefined>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value))}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** httpx 0.28's JSON body: `json.dumps(..., ensure_ascii=False, separators=(",", ":"), allow_nan=False)`. */
export function httpxJson(value: unknown): string {
  return JSON.stringify(value);
}

/** The headers every httpx request carries (httpx 0.28 defaults), after the client's own. */
export function httpxHeaders(own: Record<string, string>): Record<string, string> {
  return { accept: '*/*', 'accept-encoding': 'gzip, deflate', connection: 'keep-alive', 'user-agent': 'python-httpx/0.28.1', ...own };
}
