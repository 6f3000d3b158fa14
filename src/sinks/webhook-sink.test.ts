import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { DestinationPolicy } from './destination-policy.js';
import { HttpPoster } from './http-poster.js';
import { describeSinkContract } from './testing/sink-contract.js';
import { sampleAlert } from '../domain/testing/index.js';
import { startWebhookReceiver, type StandInReceiver } from './testing/stand-in-receiver.js';
import { WebhookSink, webhookBody } from './webhook-sink.js';

describeSinkContract('Webhook', {
  startReceiver: startWebhookReceiver,
  makeSink: (url, http, clock) => new WebhookSink({ url: `${url}/hook` }, http, clock),
  answers: {
    permanent: { status: 410, body: 'gone' },
    rateLimited: { status: 429, headers: { 'retry-after': '7' } },
    serverError: { status: 503, body: 'unavailable' },
  },
});

describe('the webhook wire format (detections.md E10)', () => {
  const clock = new ManualClock(Date.parse('2026-11-21T12:00:30Z'));
  const http = new HttpPoster(new DestinationPolicy(true), { timeoutMs: 2000, userAgent: 'vigil/0.1.0' });
  let receiver: StandInReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => receiver.stop());

  it('posts the alert as JSON with the integer nanosecond timestamp, the rendered template and the service headers', async () => {
    const sink = new WebhookSink({ url: `${receiver.url}/hook`, headers: { Authorization: 'Bearer shared' } }, http, clock);
    const alert = sampleAlert({
      info: [
        { label: 'Principal', value: 'arn:a' },
        { label: '@pagerduty.payload.severity', value: 'error' },
      ],
    });
    expect((await sink.send(alert)).kind).toBe('delivered');
    const request = receiver.requests.at(-1)!;
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'vigil/0.1.0',
      'x-vigil-alert-id': alert.id,
      authorization: 'Bearer shared',
    });
    expect(request.headers['x-vigil-signature']).toBeUndefined();
    expect(request.body).toContain('"timestamp":1795262430123456789,');
    expect(JSON.parse(request.body)).toEqual({
      id: alert.id,
      detection_rule_id: alert.detectionRuleId,
      tenant_id: 'acme',
      severity: 'High',
      severity_id: 4,
      name: 'IAM admin policy attached',
      description: alert.description,
      query_text: alert.queryText,
      tags: alert.tags,
      detected_in_time_range: { start: '2026-11-21T11:55:00.000000000Z', end: '2026-11-21T12:00:00.000000000Z' },
      timestamp: 1795262430123456800, // JSON.parse rounds; the text above holds every digit
      staging: false,
      results_table: { columns: ['userIdentity.arn', '@q.count'], rows: alert.resultsTable.rows, total_row_count: 2 },
      // the pager override is for the pager sink only
      info: [{ label: 'Principal', value: 'arn:a' }],
      actions: alert.actions,
    });
  });

  it('signs the exact body with HMAC-SHA256 of "<t>.<body>" when a signing secret is configured', async () => {
    const secret = 'whsec_0123456789abcdef';
    const sink = new WebhookSink({ url: `${receiver.url}/hook`, signingSecret: secret }, http, clock);
    await sink.send(sampleAlert());
    const request = receiver.requests.at(-1)!;
    const t = Math.floor(clock.nowMs() / 1000);
    const expected = createHmac('sha256', secret).update(`${t}.${request.body}`).digest('hex');
    expect(request.headers['x-vigil-signature']).toBe(`t=${t},v1=${expected}`);
  });

  it('treats redirects and client errors as permanent, 408 and 429 as retryable', async () => {
    const sink = new WebhookSink({ url: `${receiver.url}/hook` }, http, clock);
    receiver.answerNext({ status: 302, headers: { location: 'http://169.254.169.254/' } }, { status: 400 }, { status: 408 }, { status: 429 });
    expect((await sink.send(sampleAlert())).kind).toBe('permanent');
    expect((await sink.send(sampleAlert())).kind).toBe('permanent');
    expect(await sink.send(sampleAlert())).toMatchObject({ kind: 'retryable', httpStatus: 408, retryAfterMs: null });
    expect(await sink.send(sampleAlert())).toMatchObject({ kind: 'retryable', httpStatus: 429 });
  });

  it('refuses a name that resolves to a loopback address unless private destinations are allowed', async () => {
    const strict = new HttpPoster(new DestinationPolicy(false), { timeoutMs: 2000, userAgent: 'vigil/test' });
    // localhost.localdomain is refused by name; a public-looking name is checked after DNS. Both end permanent.
    const outcome = await new WebhookSink({ url: `http://localhost:${new URL(receiver.url).port}/hook` }, strict, clock).send(sampleAlert());
    expect(outcome).toMatchObject({ kind: 'permanent', error: expect.stringContaining('refused destination') });
  });

  it('checks every address a name resolves to, after resolution', async () => {
    const port = new URL(receiver.url).port;
    const resolve = ((_host: string, _options: unknown, callback: (e: null, a: { address: string; family: number }[]) => void) =>
      callback(null, [{ address: '127.0.0.1', family: 4 }])) as unknown as typeof import('node:dns').lookup;
    const strict = new HttpPoster(new DestinationPolicy(false), { timeoutMs: 2000, userAgent: 'vigil/test', resolve });
    const before = receiver.requests.length;
    const refused = await new WebhookSink({ url: `http://hooks.example.com:${port}/hook` }, strict, clock).send(sampleAlert());
    expect(refused).toMatchObject({ kind: 'permanent', error: 'refused destination: hooks.example.com resolves to 127.0.0.1, a loopback address' });
    expect(receiver.requests.length).toBe(before);
    const lenient = new HttpPoster(new DestinationPolicy(true), { timeoutMs: 2000, userAgent: 'vigil/test', resolve });
    expect((await new WebhookSink({ url: `http://hooks.example.com:${port}/hook` }, lenient, clock).send(sampleAlert())).kind).toBe('delivered');
  });

  it('writes a body whose timestamp digits survive even with a placeholder-like value in the data', () => {
    const alert = sampleAlert({ description: '"vigil-ns-0000000000000000"' });
    const body = webhookBody(alert);
    expect(body).toContain('"timestamp":1795262430123456789');
    expect(JSON.parse(body).description).toBe('"vigil-ns-0000000000000000"');
  });
});
