/**
 * The same events as each shipper protocol sends them, for the shipper bench: request bodies of
 * a batch of NDJSON lines, with the path and headers to post them to. Built by the client before
 * its request is timed, so only the server's work is measured.
 */
import snappy from 'snappyjs';
import { exportLogsRequestType } from '../src/shippers/otlp-logs-proto.js';
import { pushRequestType } from '../src/shippers/loki-push-proto.js';
import { decodeOtlpJson } from '../src/shippers/otlp-logs.js';

export interface EncodedRequest {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

export type ShipperProtocol = 'ndjson' | 'ndjson_otlp_events' | 'elasticsearch' | 'splunk_hec' | 'otlp_protobuf' | 'otlp_json' | 'loki_protobuf' | 'loki_json';

export const benchProtocols: readonly ShipperProtocol[] = [
  'ndjson',
  'ndjson_otlp_events',
  'elasticsearch',
  'splunk_hec',
  'otlp_protobuf',
  'otlp_json',
  'loki_protobuf',
  'loki_json',
];

/**
 * The NDJSON run whose stored events are the ones a protocol stores. OTLP keeps an event's fields
 * under `attributes` and adds `resource` (its data model: every OTLP shipper sends that shape),
 * so its rows are larger than the lines sent as they are; its decoding cost is what remains
 * against NDJSON lines of those same events. The other protocols store the lines as sent.
 */
export const storedShapeReference = (protocol: ShipperProtocol): ShipperProtocol => (protocol.startsWith('otlp_') ? 'ndjson_otlp_events' : 'ndjson');

/** The index each protocol writes to (created by the bench). */
export const indexOf = (protocol: ShipperProtocol): string => `bench-${protocol.replaceAll('_', '-')}`;

/**
 * One request carrying `lines` (NDJSON events) in the protocol's own shape:
 * - ndjson: `POST /v1/ingest`, the lines as they are;
 * - ndjson_otlp_events: `POST /v1/ingest`, the events the OTLP decoders make of the lines (the
 *   product's own decoder, so they are the stored events byte for byte);
 * - elasticsearch: `_bulk` index actions, the lines as sources;
 * - splunk_hec: `{"event": <line>}` objects, one a line;
 * - otlp: one log record per line, the event's fields as attributes (as a collector's JSON parser
 *   leaves them, no body), its `@timestamp` as the record's time;
 * - loki: one entry per line in a stream `{job="bench"}`, the line as it is, timed now.
 */
export function encodeRequest(protocol: ShipperProtocol, lines: readonly string[], nowNs: bigint, tenantId: string): EncodedRequest {
  const index = indexOf(protocol);
  const tenant = encodeURIComponent(tenantId);
  switch (protocol) {
    case 'ndjson':
      return { path: `/v1/ingest?tenant_id=${tenant}&index=${index}`, headers: { 'content-type': 'application/x-ndjson' }, body: Buffer.from(lines.join('\n') + '\n') };
    case 'ndjson_otlp_events': {
      const otlp = encodeRequest('otlp_json', lines, nowNs, tenantId).body.toString('utf8');
      const events = decodeOtlpJson(otlp).map((record) => record.line ?? '{}');
      return { path: `/v1/ingest?tenant_id=${tenant}&index=${index}`, headers: { 'content-type': 'application/x-ndjson' }, body: Buffer.from(events.join('\n') + '\n') };
    }
    case 'elasticsearch': {
      const action = JSON.stringify({ index: { _index: index } });
      return { path: `/_bulk?tenant_id=${tenant}`, headers: { 'content-type': 'application/x-ndjson' }, body: Buffer.from(lines.map((line) => `${action}\n${line}\n`).join('')) };
    }
    case 'splunk_hec':
      return { path: `/services/collector/event?index=${index}&tenant_id=${tenant}`, headers: {}, body: Buffer.from(lines.map((line) => `{"event":${line}}`).join('\n')) };
    case 'otlp_protobuf':
    case 'otlp_json': {
      const request = { resourceLogs: [{ resource: { attributes: [kv('service.name', 'bench')] }, scopeLogs: [{ logRecords: lines.map(logRecord) }] }] };
      const headers = { 'x-vigil-index': index };
      if (protocol === 'otlp_json')
        return { path: `/v1/logs?tenant_id=${tenant}`, headers: { ...headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(request)) };
      const type = exportLogsRequestType();
      return {
        path: `/v1/logs?tenant_id=${tenant}`,
        headers: { ...headers, 'content-type': 'application/x-protobuf' },
        body: Buffer.from(type.encode(type.fromObject(request)).finish()),
      };
    }
    case 'loki_protobuf':
    case 'loki_json': {
      const headers = { 'x-vigil-index': index };
      if (protocol === 'loki_json') {
        const values = lines.map((line, i) => [String(nowNs + BigInt(i)), line]);
        return {
          path: `/loki/api/v1/push?tenant_id=${tenant}`,
          headers: { ...headers, 'content-type': 'application/json' },
          body: Buffer.from(JSON.stringify({ streams: [{ stream: { job: 'bench' }, values }] })),
        };
      }
      const seconds = nowNs / 1_000_000_000n;
      const entries = lines.map((line, i) => ({ timestamp: { seconds: String(seconds), nanos: i }, line }));
      const type = pushRequestType();
      const encoded = type.encode(type.fromObject({ streams: [{ labels: '{job="bench"}', entries }] })).finish();
      return { path: `/loki/api/v1/push?tenant_id=${tenant}`, headers: { ...headers, 'content-type': 'application/x-protobuf' }, body: Buffer.from(snappy.compress(encoded)) };
    }
  }
}

function logRecord(line: string): unknown {
  const event = JSON.parse(line) as Record<string, unknown>;
  const time = typeof event['@timestamp'] === 'string' ? Date.parse(event['@timestamp']) : Number.NaN;
  return {
    ...(Number.isFinite(time) ? { timeUnixNano: String(BigInt(time) * 1_000_000n) } : {}),
    attributes: Object.entries(event).map(([key, value]) => kv(key, value)),
  };
}

function kv(key: string, value: unknown): { key: string; value: unknown } {
  return { key, value: anyValue(value) };
}

function anyValue(value: unknown): unknown {
  if (value === null || value === undefined) return {};
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  // 64-bit integers as strings, as OTLP/JSON writes them (Windows' Keywords is -2^63, exact as a double)
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: BigInt(value).toString() } : { doubleValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValue) } };
  return { kvlistValue: { values: Object.entries(value as object).map(([k, v]) => kv(k, v)) } };
}
