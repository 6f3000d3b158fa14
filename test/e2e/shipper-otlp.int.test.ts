/**
 * OTLP/HTTP logs against a Vigil server on 127.0.0.1 (docs/shippers.md), sent by the
 * OpenTelemetry JS SDK's exporters (protobuf and JSON) and by the SDK's own serializers when the
 * test needs to read the answer: stored fields, partial success, malformed bodies.
 */
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter as OtlpHttpJsonExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as OtlpProtoExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { JsonLogsSerializer, ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShipperServer, type ShipperServer } from '../support/shipper-server.js';

let s: ShipperServer;

beforeAll(async () => {
  s = await openShipperServer();
  await s.createIndex('otel');
  await s.createIndex('payments');
}, 120_000);
afterAll(async () => s?.close());

const timestamp = (iso: string): [number, number] => [Math.floor(Date.parse(iso) / 1000), 123_456_789];

async function exportWith(exporter: OtlpProtoExporter | OtlpHttpJsonExporter, service: string, count: number): Promise<void> {
  const provider = new LoggerProvider({ resource: resourceFromAttributes({ 'service.name': service, 'host.name': 'api-7' }), processors: [new BatchLogRecordProcessor({ exporter })] });
  const logger = provider.getLogger('checkout', '1.2.3');
  for (let n = 0; n < count; n++) {
    logger.emit({ timestamp: timestamp(`2026-03-0${n + 1}T10:00:00Z`), severityNumber: SeverityNumber.WARN, severityText: 'WARN', body: `payment ${n} declined`, attributes: { 'http.status_code': 402, 'order.id': `o-${n}` } });
  }
  await provider.forceFlush();
  await provider.shutdown();
}

/** Log records as the SDK makes them, to serialize by hand. */
function records(emit: (logger: ReturnType<LoggerProvider['getLogger']>) => void, resource: Record<string, string> = { 'service.name': 'by-hand' }): ReadableLogRecord[] {
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({ resource: resourceFromAttributes(resource), processors: [new SimpleLogRecordProcessor({ exporter: memory })] });
  emit(provider.getLogger('test'));
  return memory.getFinishedLogRecords();
}

const postOtlp = (body: Uint8Array | string, type: string, headers: Record<string, string> = {}) =>
  fetch(`${s.url}/v1/logs`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': type, ...headers }, body });

describe('the OpenTelemetry SDK exporters', () => {
  it('protobuf: records are stored with time, severity, body, attributes, resource and scope', async () => {
    await exportWith(new OtlpProtoExporter({ url: `${s.url}/v1/logs`, headers: { authorization: `Bearer ${s.key}` } }), 'checkout-proto', 3);
    const rows = await s.query('@index = otel resource.attributes.service.name = "checkout-proto"');
    expect(rows).toHaveLength(3);
    const first = rows.find((row) => row['attributes.order.id'] === 'o-0');
    expect(first).toMatchObject({
      '@timestamp': '2026-03-01T10:00:00.123456789Z',
      severity_text: 'WARN',
      severity_number: 13,
      body: 'payment 0 declined',
      'attributes.http.status_code': 402,
      'resource.attributes.host.name': 'api-7',
      'scope.name': 'checkout',
      'scope.version': '1.2.3',
    });
    expect(await s.query('@index = otel resource.attributes.service.name = "checkout-proto"', { from: '2026-03-02T10:00:00.123456789Z', to: '2026-03-02T10:00:00.123456790Z' })).toHaveLength(1);
  });

  it('JSON: the same records through the JSON exporter', async () => {
    await exportWith(new OtlpHttpJsonExporter({ url: `${s.url}/v1/logs`, headers: { authorization: `Bearer ${s.key}` } }), 'checkout-json', 2);
    const rows = await s.query('@index = otel resource.attributes.service.name = "checkout-json" | groupbycount attributes.order.id');
    expect(rows.map((r) => r['attributes.order.id']).sort()).toEqual(['o-0', 'o-1']);
  });
});

describe('OTLP requests built with the SDK serializers', () => {
  it('routes by the vigil.index attribute, flattens structured bodies, and reads gzip', async () => {
    const logs = records((logger) => {
      logger.emit({ body: { amount: 12.5, card: { last4: '4242' }, tags: ['a', 'b'] }, attributes: { 'vigil.index': 'payments' }, timestamp: timestamp('2026-03-05T00:00:00Z') });
    });
    const [log] = logs;
    const body = ProtobufLogsSerializer.serializeRequest(logs)!;
    const r = await postOtlp(gzipSync(body), 'application/x-protobuf', { 'content-encoding': 'gzip' });
    expect(r.status).toBe(200);
    expect(ProtobufLogsSerializer.deserializeResponse(new Uint8Array(await r.arrayBuffer())).partialSuccess).toBeUndefined();
    const [row] = await s.query('@index = payments body.card.last4 = "4242"');
    expect(row).toMatchObject({ 'body.amount': 12.5, 'body.tags[1]': 'b', 'resource.attributes.service.name': 'by-hand' });
    expect(log).toBeDefined();
  });

  it('stores trace and span ids as hex, with the observed time when the record has no time of its own', async () => {
    const body = {
      resourceLogs: [{ scopeLogs: [{ logRecords: [{ observedTimeUnixNano: '1772841600000000001', body: { stringValue: 'traced' }, traceId: '5B8EFFF798038103D269B633813FC60C', spanId: 'EEE19B7EC3C1B174', flags: 1 }] }] }],
    };
    expect((await postOtlp(JSON.stringify(body), 'application/json')).status).toBe(200);
    const [row] = await s.query('@index = otel body = traced');
    expect(row).toMatchObject({ trace_id: '5b8efff798038103d269b633813fc60c', span_id: 'eee19b7ec3c1b174', trace_flags: 1, '@timestamp': '2026-03-07T00:00:00.000000001Z', observed_timestamp: '2026-03-07T00:00:00.000000001Z' });
  });

  it('answers partial success for records of an index that does not exist, keeping the others', async () => {
    const logs = records((logger) => {
      logger.emit({ body: 'kept by proto', timestamp: timestamp('2026-03-06T00:00:00Z') });
      logger.emit({ body: 'lost by proto', attributes: { 'vigil.index': 'missing' } });
    });
    const r = await postOtlp(ProtobufLogsSerializer.serializeRequest(logs)!, 'application/x-protobuf');
    expect(r.status).toBe(200);
    const answer = ProtobufLogsSerializer.deserializeResponse(new Uint8Array(await r.arrayBuffer()));
    expect(Number(answer.partialSuccess?.rejectedLogRecords)).toBe(1);
    expect(answer.partialSuccess?.errorMessage).toMatch(/no such index \[missing\]/);
    expect(await s.query('@index = otel body = "kept by proto"')).toHaveLength(1);

    const json = await postOtlp(new TextDecoder().decode(JsonLogsSerializer.serializeRequest(logs)!), 'application/json');
    expect(await json.json()).toMatchObject({ partialSuccess: { rejectedLogRecords: '1' } });
  });

  it('refuses bodies that are not OTLP with 400 and a Status, and other content types with 415', async () => {
    const broken = await postOtlp(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), 'application/x-protobuf');
    expect(broken.status).toBe(400);
    const badJson = await postOtlp('{"resourceLogs": [', 'application/json');
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ code: 3, message: expect.stringMatching(/invalid JSON/) });
    expect((await postOtlp('x', 'text/plain')).status).toBe(415);
    const anonymous = await fetch(`${s.url}/v1/logs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anonymous.status).toBe(401);
  });
});
