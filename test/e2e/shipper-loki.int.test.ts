/**
 * Loki push against a Vigil server on 127.0.0.1 (docs/shippers.md): `winston-loki` sending
 * snappy-compressed protobuf (its own compiled Loki proto), replays of Loki's documented JSON
 * push with structured metadata, and Loki's answers for what is refused.
 */
import { gzipSync } from 'node:zlib';
import winston from 'winston';
import LokiTransport from 'winston-loki';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, openShipperServer, type ShipperServer } from '../support/shipper-server.js';

let s: ShipperServer;

beforeAll(async () => {
  s = await openShipperServer();
  await s.createIndex('loki');
  await s.createIndex('edge');
}, 120_000);
afterAll(async () => s?.close());

const push = (body: string | Buffer, headers: Record<string, string>) =>
  fetch(`${s.url}/loki/api/v1/push`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, ...headers }, body });

describe('the winston-loki client (protobuf and snappy)', () => {
  it('pushes entries whose stream labels become fields, routed by the vigil_index label', async () => {
    const errors: unknown[] = [];
    const transport = new LokiTransport({ host: s.url, json: false, interval: 0.1, basicAuth: `acme:${s.key}`, labels: { job: 'checkout', env: 'prod' }, onConnectionError: (e: unknown) => errors.push(e) });
    const logger = winston.createLogger({ transports: [transport] });
    const before = Date.now();
    logger.info({ message: 'order placed', labels: { vigil_index: 'edge' } });
    logger.warn({ message: 'order slow' });
    await transport.flush();
    await transport.close();
    expect(errors).toEqual([]);
    const [edge] = await s.query('@index = edge');
    expect(edge).toMatchObject({ job: 'checkout', env: 'prod', level: 'info', message: expect.stringMatching(/^order placed/) });
    // the client stamps entries with its clock, in milliseconds: the entry's time is the event time
    expect(Date.parse(String(edge?.['@timestamp']))).toBeGreaterThanOrEqual(before);
    const [slow] = await s.query('@index = loki job = checkout');
    expect(slow).toMatchObject({ level: 'warn', message: expect.stringMatching(/^order slow/) });
  });
});

describe("Loki's JSON push", () => {
  it('stores each value with its labels, structured metadata and nanosecond time; gzip works', async () => {
    const body = {
      streams: [
        { stream: { app: 'nginx', host: 'web-1' }, values: [['1775030400000000001', 'GET / 200'], ['1775030400000000002', 'GET /x 404', { trace_id: 'abc123' }]] },
        { stream: { app: 'nginx', vigil_index: 'edge' }, values: [['1775030400000000003', 'edge line']] },
      ],
    };
    const r = await push(gzipSync(JSON.stringify(body)), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(r.status).toBe(204);
    const rows = await s.query('@index = loki app = nginx');
    expect(rows.map((row) => [row['message'], row['host'], row['structured_metadata.trace_id'] ?? null, row['@timestamp']]).sort()).toEqual([
      ['GET / 200', 'web-1', null, '2026-04-01T08:00:00.000000001Z'],
      ['GET /x 404', 'web-1', 'abc123', '2026-04-01T08:00:00.000000002Z'],
    ]);
    expect(await s.query('@index = edge message = "edge line"')).toHaveLength(1);
  });

  it('answers 400 naming the refused entries and stores the others; a body that is not a push is refused whole', async () => {
    const body = { streams: [{ stream: { app: 'mixed' }, values: [['1775030400000000001', 'good'], ['yesterday', 'bad time'], ['1775030400000000002'], ['1775030400000000003', 'good too']] }] };
    const r = await push(JSON.stringify(body), { 'content-type': 'application/json' });
    expect(r.status).toBe(400);
    expect(await r.text()).toMatch(/^2 of 4 entries were refused \(the others were stored\):\nentry 1: streams\[0\]\.values\[1\]: the timestamp/);
    expect((await s.query('@index = loki app = mixed')).map((row) => row['message']).sort()).toEqual(['good', 'good too']);
    const notPush = await push('{"streams": 1}', { 'content-type': 'application/json' });
    expect(notPush.status).toBe(400);
    const notSnappy = await push('this is not snappy', { 'content-type': 'application/x-protobuf' });
    expect(notSnappy.status).toBe(400);
    expect(await notSnappy.text()).toMatch(/snappy/);
  });

  it('takes the tenant from X-Scope-OrgID, which the key must hold', async () => {
    const r = await push('{"streams":[]}', { 'content-type': 'application/json', 'x-scope-orgid': 'globex' });
    expect(r.status).toBe(403);
    const ok = await push('{"streams":[]}', { 'content-type': 'application/json', 'x-scope-orgid': 'acme' });
    expect(ok.status).toBe(204);
    const anonymous = await fetch(`${s.url}/loki/api/v1/push`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: basicAuth('acme', 'vgl_wrong') }, body: '{}' });
    expect(anonymous.status).toBe(401);
  });
});
