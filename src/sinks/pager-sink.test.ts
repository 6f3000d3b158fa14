import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { DestinationPolicy } from './destination-policy.js';
import { HttpPoster } from './http-poster.js';
import { pagerEvent, pagerLimits, pagerSeverity } from './pager-event.js';
import { PagerSink } from './pager-sink.js';
import { describeSinkContract } from './testing/sink-contract.js';
import { sampleAlert } from '../domain/testing/index.js';
import { pagerAnswers, startPagerApiStandIn, type StandInReceiver } from './testing/stand-in-receiver.js';

const key = 'R0123456789abcdefghijklmnopqrstu';

describeSinkContract('Pager', {
  startReceiver: startPagerApiStandIn,
  makeSink: (url, http, clock) => new PagerSink({ apiUrl: url, integrationKey: key }, http, clock),
  answers: { permanent: pagerAnswers.invalid(), rateLimited: pagerAnswers.tooMany(7), serverError: pagerAnswers.serverError() },
});

describe('the pager wire format (detections.md E12)', () => {
  const clock = new ManualClock(Date.parse('2026-11-21T12:00:30Z'));
  const http = new HttpPoster(new DestinationPolicy(true), { timeoutMs: 2000, userAgent: 'vigil/test' });
  let api: StandInReceiver;
  beforeAll(async () => {
    api = await startPagerApiStandIn();
  });
  afterAll(async () => api.stop());

  it('posts an Events API v2 trigger to /v2/enqueue', async () => {
    const alert = sampleAlert();
    expect(await new PagerSink({ apiUrl: `${api.url}/`, integrationKey: key }, http, clock).send(alert)).toMatchObject({ kind: 'delivered', httpStatus: 202 });
    const request = api.requests.at(-1)!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      routing_key: key,
      event_action: 'trigger',
      dedup_key: alert.detectionRuleId,
      payload: {
        summary: 'IAM admin policy attached',
        source: 'vigil',
        severity: 'error',
        timestamp: '2026-11-21T12:00:30.123Z',
        custom_details: {
          window: alert.window,
          row_count: 2,
          rows: alert.resultsTable.rows,
          Principal: 'arn:aws:iam::1:user/a',
        },
      },
      links: [{ href: 'https://runbooks.example.com/iam-admin', text: 'Runbook' }],
      client: 'Vigil',
    });
  });

  it('maps severities to the four PagerDuty accepts', () => {
    expect(['Critical', 'Fatal', 'High', 'Medium', 'Low', 'Informational', 'Unknown', 'Other'].map(pagerSeverity)).toEqual([
      'critical',
      'critical',
      'error',
      'warning',
      'info',
      'info',
      'info',
      'info',
    ]);
  });

  it('applies @pagerduty. overrides last, except the routing key', () => {
    const event = pagerEvent(
      sampleAlert({
        info: [
          { label: 'Principal', value: 'arn:a' },
          { label: '@pagerduty.payload.severity', value: 'critical' },
          { label: '@pagerduty.dedup_key', value: 'principal-arn:a' },
          { label: '@pagerduty.payload.component', value: 'iam' },
          { label: '@pagerduty.routing_key', value: 'someone-else' },
          { label: '@pagerduty.__proto__.polluted', value: 'x' },
        ],
      }),
      key,
    ) as any;
    expect(event.routing_key).toBe(key);
    expect(event.dedup_key).toBe('principal-arn:a');
    expect(event.payload.severity).toBe('critical');
    expect(event.payload.component).toBe('iam');
    expect(event.payload.custom_details).not.toHaveProperty('@pagerduty.payload.severity');
    expect(({} as any).polluted).toBeUndefined();
  });

  it('leaves out an override the event cannot take, keeping the default: the pager would refuse the event', () => {
    const event = pagerEvent(
      sampleAlert({
        info: [
          { label: '@pagerduty.payload', value: 'the whole payload' },
          { label: '@pagerduty.payload.severity', value: 'high' },
          { label: '@pagerduty.payload.summary', value: ' ' },
          { label: '@pagerduty.payload.timestamp', value: 'soon' },
          { label: '@pagerduty.links', value: 'https://x.example.com' },
          { label: '@pagerduty.event_action', value: 'resolve' },
          { label: '@pagerduty.payload.custom_details.runbook', value: 'https://runbooks.example.com/x' },
        ],
      }),
      key,
    ) as any;
    const plain = pagerEvent(sampleAlert(), key) as any;
    expect(event.payload).toMatchObject({ summary: plain.payload.summary, severity: plain.payload.severity, timestamp: plain.payload.timestamp, source: 'vigil' });
    expect(event.payload.custom_details.runbook).toBe('https://runbooks.example.com/x');
    expect(event.event_action).toBe('trigger');
    expect(event.links).toEqual(plain.links);
  });

  it('keeps the event under 512 KB by showing fewer rows', () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ blob: 'y'.repeat(100_000), i }));
    const event = pagerEvent(sampleAlert({ resultsTable: { columns: ['blob', 'i'], rows, totalRowCount: 100 } }), key) as any;
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThanOrEqual(pagerLimits.payloadBytes);
    expect(event.payload.custom_details.row_count).toBe(100);
    expect(event.payload.custom_details.rows.length).toBeLessThan(10);
  });

  it('treats 400 as permanent, 429 and 500 as retryable', async () => {
    const sink = new PagerSink({ apiUrl: api.url, integrationKey: key }, http, clock);
    api.answerNext(pagerAnswers.invalid(), pagerAnswers.tooMany(), pagerAnswers.serverError());
    expect(await sink.send(sampleAlert())).toMatchObject({ kind: 'permanent', httpStatus: 400, error: expect.stringContaining('invalid event') });
    expect(await sink.send(sampleAlert())).toMatchObject({ kind: 'retryable', httpStatus: 429, retryAfterMs: null });
    expect(await sink.send(sampleAlert())).toMatchObject({ kind: 'retryable', httpStatus: 500 });
  });
});
