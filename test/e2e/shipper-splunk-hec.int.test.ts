/**
 * Splunk HEC against a Vigil server on 127.0.0.1 (docs/shippers.md): the `splunk-logging`
 * library, and replays of the requests Splunk's HEC documentation shows (batched events, raw
 * lines, health, indexer acknowledgement), with HEC's codes for what is refused.
 */
import { gzipSync } from 'node:zlib';
import { Logger as SplunkLogger } from 'splunk-logging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShipperServer, type ShipperServer } from '../support/shipper-server.js';

let s: ShipperServer;

beforeAll(async () => {
  s = await openShipperServer();
  await s.createIndex('main');
  await s.createIndex('hec');
}, 120_000);
afterAll(async () => s?.close());

const hec = (path: string, body: string | Buffer, headers: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, { method: 'POST', headers: { authorization: `Splunk ${s.key}`, ...headers }, body });

describe('the splunk-logging library', () => {
  it('sends a batch of events that are stored with their time, host, source and sourcetype', async () => {
    // maxBatchCount 0: events queue until flush(), which sends them in one request
    const logger = new SplunkLogger({ token: s.key, url: s.url, maxBatchCount: 0 });
    for (let n = 0; n < 3; n++) {
      logger.send({ message: { action: 'login', user: `u${n}` }, metadata: { host: 'web-1', source: 'app.log', sourcetype: 'app:json', index: 'hec', time: Date.UTC(2026, 1, 2, 3, 4, n) / 1000 } });
    }
    logger.send({ message: 'plain text event', metadata: { index: 'hec' } });
    const body = await new Promise<unknown>((resolve, reject) => logger.flush((error: unknown, _r: unknown, b: unknown) => (error ? reject(error) : resolve(b))));
    expect(body).toEqual({ text: 'Success', code: 0 });
    // the library's events are {message, severity}: the event object's keys become columns
    const rows = await s.query('@index = hec message.action = login');
    expect(rows.map((r) => [r['message.user'], r['host'], r['source'], r['sourcetype'], r['severity']]).sort()).toEqual([
      ['u0', 'web-1', 'app.log', 'app:json', 'info'],
      ['u1', 'web-1', 'app.log', 'app:json', 'info'],
      ['u2', 'web-1', 'app.log', 'app:json', 'info'],
    ]);
    expect(await s.query('@index = hec message = "plain text event"')).toHaveLength(1);
    // the envelope's time (epoch seconds) is the event time
    expect(await s.query('@index = hec message.user = u1', { from: '2026-02-02T03:04:01Z', to: '2026-02-02T03:04:02Z' })).toHaveLength(1);
  });
});

describe('HEC requests as Splunk documents them', () => {
  it('stores concatenated events, strings as message, fields beside the event, index main by default', async () => {
    const body = '{"time": 1426279439, "host": "localhost", "source": "datasource", "sourcetype": "txt", "event": "Hello world!"}'
      + '{"event": {"action": "logout", "user": "ada"}, "fields": {"region": "eu", "user": "not-this"}}\n';
    const r = await hec('/services/collector/event', body);
    expect(await r.json()).toEqual({ text: 'Success', code: 0 });
    expect(await s.query('@index = main message = "Hello world!" host = localhost source = datasource sourcetype = txt')).toHaveLength(1);
    const [logout] = await s.query('@index = main action = logout');
    expect(logout).toMatchObject({ user: 'ada', region: 'eu' }); // the event's own key wins over a field
  });

  it('reads /raw lines, with host and sourcetype from the query string, and gzip bodies', async () => {
    const r = await hec('/services/collector/raw?index=hec&host=fw-2&sourcetype=syslog', gzipSync('Jan  1 00:00:00 fw-2 deny tcp\n\nJan  1 00:00:01 fw-2 allow udp\n'), { 'content-encoding': 'gzip' });
    expect(await r.json()).toEqual({ text: 'Success', code: 0 });
    const rows = await s.query('@index = hec host = "fw-2" sourcetype = syslog');
    expect(rows.map((row) => row['message']).sort()).toEqual(['Jan  1 00:00:00 fw-2 deny tcp', 'Jan  1 00:00:01 fw-2 allow udp']);
  });

  it('answers health without a token, and acknowledgement ids for a channel, acknowledged as indexed', async () => {
    expect(await (await fetch(`${s.url}/services/collector/health`)).json()).toEqual({ text: 'HEC is healthy', code: 17 });
    const channel = { 'x-splunk-request-channel': 'FE0ECFAD-13D5-401B-847D-77833BD77131' };
    const first = (await (await hec('/services/collector/event', '{"event":"acked 1","index":"hec"}', channel)).json()) as { ackId: number };
    const second = (await (await hec('/services/collector/event', '{"event":"acked 2","index":"hec"}', channel)).json()) as { ackId: number };
    expect([first.ackId, second.ackId]).toEqual([0, 1]);
    const acks = await hec('/services/collector/ack', JSON.stringify({ acks: [0, 1, 2] }), channel);
    expect(await acks.json()).toEqual({ acks: { '0': true, '1': true, '2': false } });
  });

  it('keeps every valid event of a batch with invalid ones, naming the first invalid one', async () => {
    const body = ['{"event":{"k":"kept-1"},"index":"hec"}', '{"time":1}', '{"event":{"k":"kept-2"},"index":"hec"}', '{"event": nope}', '{"event":""}', '{"event":{"k":"kept-3"},"index":"hec"}'].join('\n');
    const r = await hec('/services/collector', body);
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ text: 'Event field is required', code: 12, 'invalid-event-number': 1, ingested: 3, rejected: 3 });
    expect((await s.query('@index = hec k: "kept-*" | groupbycount k')).map((row) => row['k']).sort()).toEqual(['kept-1', 'kept-2', 'kept-3']);
  });

  it('answers HEC codes: token required, invalid authorization, invalid token, no data, incorrect index', async () => {
    const answer = async (r: Response) => [r.status, ((await r.json()) as { code: number }).code];
    expect(await answer(await fetch(`${s.url}/services/collector`, { method: 'POST', body: '{"event":"x"}' }))).toEqual([401, 2]);
    expect(await answer(await fetch(`${s.url}/services/collector`, { method: 'POST', headers: { authorization: 'Token abc' }, body: '{"event":"x"}' }))).toEqual([401, 3]);
    expect(await answer(await fetch(`${s.url}/services/collector`, { method: 'POST', headers: { authorization: 'Splunk vgl_unknown' }, body: '{"event":"x"}' }))).toEqual([403, 4]);
    expect(await answer(await hec('/services/collector', '  '))).toEqual([400, 5]);
    expect(await answer(await hec('/services/collector', '{"event":"x","index":"nope"}'))).toEqual([400, 7]);
  });
});
