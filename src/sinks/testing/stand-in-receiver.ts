import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request a stand-in received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Date.now() when it arrived. */
  readonly at: number;
}

/** How a stand-in answers one request. */
export interface Answer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Objects are sent as JSON. */
  readonly body?: string | object;
  /** Wait this long before answering (time-out tests). */
  readonly delayMs?: number;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for a webhook receiver, the chat Web API or the
 * pager Events API. It records every request and answers with scripted answers first, then with
 * its default. `down()` closes the port (connections are refused) and `up()` listens on it again.
 */
export class StandInReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly scripted: Answer[] = [];
  private server: Server;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(
    private readonly path: string,
    private fallback: (request: ReceivedRequest) => Answer,
  ) {
    this.server = this.createServer();
  }

  /** Starts a stand-in that accepts POSTs to `path` (others answer 404). */
  static async start(path: string, fallback: (request: ReceivedRequest) => Answer): Promise<StandInReceiver> {
    const receiver = new StandInReceiver(path, fallback);
    await receiver.up();
    return receiver;
  }

  /** The base URL, `http://127.0.0.1:<port>`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Answers the next requests with these, in order, before returning to the default. */
  answerNext(...answers: Answer[]): void {
    this.scripted.push(...answers);
  }

  /** Replaces the default answer. */
  answerAlways(fallback: Answer | ((request: ReceivedRequest) => Answer)): void {
    this.fallback = typeof fallback === 'function' ? fallback : () => fallback;
  }

  /** Resolves once `count` requests in all have arrived. */
  waitForRequests(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`stand-in got ${this.requests.length} of ${count} requests within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** Stops listening and drops open connections: the destination refuses connections until up(). */
  async down(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server = this.createServer();
  }

  /** Listens again, on the same port as before. */
  async up(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    if (this.server.listening) await this.down();
  }

  private createServer(): Server {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const received: ReceivedRequest = {
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.requests.push(received);
        this.waiters = this.waiters.filter((w) => {
          if (this.requests.length < w.count) return true;
          w.resolve();
          return false;
        });
        const answer = received.method !== 'POST' || received.path !== this.path ? { status: 404, body: 'no such endpoint' } : (this.scripted.shift() ?? this.fallback(received));
        const send = (): void => respond(response, answer);
        if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
        else send();
      });
    });
    server.keepAliveTimeout = 1000;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    return server;
  }
}

function respond(response: ServerResponse, answer: Answer): void {
  if (response.destroyed) return;
  const isObject = typeof answer.body === 'object';
  const body = answer.body === undefined ? '' : isObject ? JSON.stringify(answer.body) : String(answer.body);
  response.writeHead(answer.status, { ...(isObject ? { 'content-type': 'application/json' } : {}), ...answer.headers });
  response.end(body);
}

/** A webhook receiver answering 200. */
export function startWebhookReceiver(): Promise<StandInReceiver> {
  return StandInReceiver.start('/hook', () => ({ status: 200, body: { received: true } }));
}

/** The Slack Web API's `chat.postMessage` at `<url>/api`, answering `ok:true`. */
export function startChatApiStandIn(): Promise<StandInReceiver> {
  return StandInReceiver.start('/api/chat.postMessage', (request) => {
    const channel = (JSON.parse(request.body) as { channel?: string }).channel ?? '';
    return { status: 200, body: { ok: true, channel, ts: `${Math.floor(request.at / 1000)}.000100`, message: { type: 'message' } } };
  });
}

/** PagerDuty's Events API v2 (`/v2/enqueue`), answering 202. */
export function startPagerApiStandIn(): Promise<StandInReceiver> {
  return StandInReceiver.start('/v2/enqueue', (request) => {
    const dedupKey = (JSON.parse(request.body) as { dedup_key?: string }).dedup_key ?? 'generated';
    return { status: 202, body: { status: 'success', message: 'Event processed', dedup_key: dedupKey } };
  });
}

/** The chat API's answers the tests script. */
export const chatAnswers = {
  okFalse: (error: string): Answer => ({ status: 200, body: { ok: false, error } }),
  rateLimited: (retryAfterS: number): Answer => ({ status: 429, headers: { 'retry-after': String(retryAfterS) }, body: { ok: false, error: 'ratelimited' } }),
};

/** The pager API's answers the tests script. */
export const pagerAnswers = {
  invalid: (message = 'Event object is invalid'): Answer => ({ status: 400, body: { status: 'invalid event', message, errors: ["'payload.severity' is invalid"] } }),
  tooMany: (retryAfterS?: number): Answer => ({
    status: 429,
    ...(retryAfterS === undefined ? {} : { headers: { 'retry-after': String(retryAfterS) } }),
    body: { status: 'throttle event', message: 'Requests for this service are arriving too quickly.' },
  }),
  serverError: (): Answer => ({ status: 500, body: 'internal error' }),
};
