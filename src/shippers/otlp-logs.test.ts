import { JsonLogsSerializer, ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../ingest/index.js';
import { decodeOtlpJson, decodeOtlpProtobuf } from './otlp-logs.js';
import { exportLogsRequestType } from './otlp-logs-proto.js';

/** Log records made by the OpenTelemetry SDK, serialized by its own serializers. */
function sdkRequests(big = 2 ** 60) {
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'svc', 'vigil.index': 'from-resource' }),
    processors: [new SimpleLogRecordProcessor({ exporter: memory })],
  });
  const logger = provider.getLogger('scope-a', '2.0.0');
  logger.emit({
    timestamp: [1_700_000_000, 5],
    severityText: 'INFO',
    severityNumber: 9,
    body: 'plain',
    attributes: { n: 3, pi: 3.25, ok: true, tags: ['a', 'b'], 'vigil.index': 'from-record' },
  });
  logger.emit({ observedTimestamp: [1_700_000_001, 0], body: { nested: { deep: [1, 'x', { k: null }] } }, attributes: { big } });
  const records = memory.getFinishedLogRecords();
  return { protobuf: ProtobufLogsSerializer.serializeRequest(records)!, json: new TextDecoder().decode(JsonLogsSerializer.serializeRequest(records)!) };
}

describe('OTLP logs decoding', () => {
  it('gives the same events from the protobuf and the JSON encoding of the same request', () => {
    // (an integer beyond 2^53 differs at the source: the SDK's JSON writes it with JavaScript's digits)
    const { protobuf, json } = sdkRequests(2 ** 40);
    const fromProtobuf = decodeOtlpProtobuf(protobuf);
    expect(fromProtobuf).toHaveLength(2);
    expect(decodeOtlpJson(json)).toEqual(fromProtobuf);
  });

  it("writes the documented fields and routes by vigil.index, the record's before its resource's", () => {
    const [first, second] = decodeOtlpProtobuf(sdkRequests().protobuf);
    expect(first?.index).toBe('from-record');
    expect(second?.index).toBe('from-resource');
    const event = parseJsonText(first?.line ?? '') as { ok: true; value: Record<string, unknown> };
    expect(event.value).toMatchObject({
      '@timestamp': '2023-11-14T22:13:20.000000005Z',
      severity_text: 'INFO',
      severity_number: 9,
      body: 'plain',
      attributes: { n: 3, pi: 3.25, ok: true, tags: ['a', 'b'] },
      resource: { attributes: { 'service.name': 'svc' } },
      scope: { name: 'scope-a', version: '2.0.0' },
    });
    const other = parseJsonText(second?.line ?? '') as { ok: true; value: Record<string, unknown> };
    expect(other.value).toMatchObject({
      observed_timestamp: '2023-11-14T22:13:21.000000000Z',
      body: { nested: { deep: [1, 'x', { k: null }] } },
      attributes: { big: '1152921504606846976' },
    });
  });

  it('writes doubles JSON cannot hold by their names', () => {
    const type = exportLogsRequestType();
    const request = type
      .encode(type.fromObject({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { doubleValue: Number.NaN } }, { body: { doubleValue: -Infinity } }] }] }] }))
      .finish();
    expect(decodeOtlpProtobuf(request).map((r) => r.line)).toEqual(['{"body":"NaN"}', '{"body":"-Infinity"}']);
  });

  it('writes every int64 with its exact digits, at each varint length and sign', () => {
    const values = ['0', '127', '128', '562949953421311', '562949953421312', '9007199254740993', '9223372036854775807', '-1', '-9223372036854775808'];
    const type = exportLogsRequestType();
    const request = type.encode(type.fromObject({ resourceLogs: [{ scopeLogs: [{ logRecords: values.map((intValue) => ({ body: { intValue } })) }] }] })).finish();
    expect(decodeOtlpProtobuf(request).map((r) => r.line)).toEqual(values.map((digits) => `{"body":${digits}}`));
  });

  it('skips fields it does not know and reads a resource sent after its scopes', () => {
    const type = exportLogsRequestType();
    const request = type
      .encode(
        type.fromObject({
          resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'late resource' } }] }], resource: { attributes: [{ key: 'k', value: { stringValue: 'v' } }] } }],
        }),
      )
      .finish();
    // field 15 of the request (unknown) before the real content
    const withUnknown = Buffer.concat([Buffer.from([0x7a, 0x02, 0x08, 0x01]), Buffer.from(request)]);
    expect(decodeOtlpProtobuf(withUnknown).map((r) => r.line)).toEqual(['{"body":"late resource","resource":{"attributes":{"k":"v"}}}']);
  });

  it('refuses a body that is not a request', () => {
    expect(() => decodeOtlpProtobuf(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f]))).toThrow(/not an OTLP ExportLogsServiceRequest/);
    expect(() => decodeOtlpJson('[1]')).toThrow(/must be a JSON object/);
  });
});
