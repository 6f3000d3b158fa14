import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { ChatSink } from './chat-sink.js';
import { chatLimits, chatMessage } from './chat-message.js';
import { DestinationPolicy } from './destination-policy.js';
import { HttpPoster } from './http-poster.js';
import { describeSinkContract } from './testing/sink-contract.js';
import { sampleAlert } from '../domain/testing/index.js';
import { chatAnswers, startChatApiStandIn, type StandInReceiver } from './testing/stand-in-receiver.js';
import { cutMarker } from './text-limits.js';

const token = 'xoxb-1234-5678-secretsecretsecret';

describeSinkContract('Chat', {
  startReceiver: startChatApiStandIn,
  makeSink: (url, http, clock) => new ChatSink({ apiUrl: `${url}/api`, token, channel: 'C0123' }, http, clock),
  answers: {
    permanent: chatAnswers.okFalse('channel_not_found'),
    rateLimited: chatAnswers.rateLimited(7),
    serverError: { status: 502, body: 'bad gateway' },
  },
});

describe('the chat wire format (detections.md E11)', () => {
  const clock = new ManualClock(Date.parse('2026-11-21T12:00:30Z'));
  const http = new HttpPoster(new DestinationPolicy(true), { timeoutMs: 2000, userAgent: 'vigil/test' });
  let api: StandInReceiver;
  beforeAll(async () => {
    api = await startChatApiStandIn();
  });
  afterAll(async () => api.stop());

  it('posts chat.postMessage with the bot token and a Block Kit message', async () => {
    const sink = new ChatSink({ apiUrl: `${api.url}/api/`, token, channel: 'C0123' }, http, clock);
    expect((await sink.send(sampleAlert())).kind).toBe('delivered');
    const request = api.requests.at(-1)!;
    expect(request.path).toBe('/api/chat.postMessage');
    expect(request.headers.authorization).toBe(`Bearer ${token}`);
    expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(request.body)).toEqual({
      channel: 'C0123',
      text: '[High] IAM admin policy attached',
      unfurl_links: false,
      unfurl_media: false,
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: '[High] IAM admin policy attached', emoji: true } },
        { type: 'section', text: { type: 'mrkdwn', text: 'Fires when AdministratorAccess is attached to a principal.' } },
        { type: 'section', fields: [{ type: 'mrkdwn', text: '*Principal*\narn:aws:iam::1:user/a' }] },
        { type: 'section', text: { type: 'mrkdwn', text: '*Escalate*: call the on-call lead' } },
        { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Runbook', emoji: true }, url: 'https://runbooks.example.com/iam-admin' }] },
        {
          type: 'context',
          elements: [
            { type: 'mrkdwn', text: 'Window 2026-11-21T11:55:00.000000000Z – 2026-11-21T12:00:00.000000000Z · 2 rows · source.cloudtrail, tactics.ta0004.privilege_escalation' },
          ],
        },
      ],
    });
  });

  it('sends the deprecated channel name as the channel', async () => {
    await new ChatSink({ apiUrl: `${api.url}/api`, token, channel: '#secops' }, http, clock).send(sampleAlert());
    expect(JSON.parse(api.requests.at(-1)!.body).channel).toBe('#secops');
  });

  it('classifies ok:false rate_limited as retryable and other ok:false errors as permanent', async () => {
    const sink = new ChatSink({ apiUrl: `${api.url}/api`, token, channel: 'C0123' }, http, clock);
    api.answerNext(chatAnswers.okFalse('rate_limited'), chatAnswers.okFalse('invalid_auth'), chatAnswers.okFalse('not_in_channel'));
    expect(await sink.send(sampleAlert())).toMatchObject({ kind: 'retryable', error: 'ok:false rate_limited' });
    expect(await sink.send(sampleAlert())).toMatchObject({ kind: 'permanent', error: 'ok:false invalid_auth' });
    expect(await sink.send(sampleAlert())).toMatchObject({ kind: 'permanent', error: 'ok:false not_in_channel' });
  });
});

describe('the default chat layout', () => {
  it('shows a code block of the first rows when the rule has no template', () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ user: `u${i}`, n: i }));
    const message = chatMessage(sampleAlert({ templated: false, info: [], actions: [], resultsTable: { columns: ['user', 'n'], rows, totalRowCount: 250 } }));
    const code = message.blocks.find((b) => JSON.stringify(b).includes('```'));
    expect(code).toEqual({ type: 'section', text: { type: 'mrkdwn', text: '```\nuser | n\nu0 | 0\nu1 | 1\nu2 | 2\nu3 | 3\nu4 | 4\n… 245 more\n```' } });
  });

  it('escapes mrkdwn control characters in values', () => {
    const message = chatMessage(sampleAlert({ info: [{ label: 'Who', value: '<@U123> & <!channel>' }] }));
    expect(JSON.stringify(message.blocks)).toContain('&lt;@U123&gt; &amp; &lt;!channel&gt;');
  });

  it('cuts every text to its Block Kit limit and marks the cut', () => {
    const long = 'x'.repeat(10_000);
    const info = Array.from({ length: 300 }, (_, i) => ({ label: `l${i}`, value: long }));
    const actions = Array.from({ length: 30 }, (_, i) => ({ label: long, value: `https://example.com/${i}` }));
    const message = chatMessage(sampleAlert({ name: long, description: long, info, actions }));
    expect(message.blocks.length).toBeLessThanOrEqual(chatLimits.blocks);
    expect(message.blocks.at(-1)).toMatchObject({ type: 'context' });
    const header = message.blocks[0] as { text: { text: string } };
    expect(header.text.text).toHaveLength(chatLimits.headerText);
    expect(header.text.text.endsWith(cutMarker)).toBe(true);
    const description = message.blocks[1] as { text: { text: string } };
    expect(description.text.text).toHaveLength(chatLimits.sectionText);
    const fields = (message.blocks[2] as { fields: { text: string }[] }).fields;
    expect(fields).toHaveLength(chatLimits.fieldsPerSection);
    expect(fields.every((f) => f.text.length === chatLimits.fieldText && f.text.endsWith(cutMarker))).toBe(true);
    expect(message.text.length).toBeLessThanOrEqual(chatLimits.fallbackText);
  });
});
