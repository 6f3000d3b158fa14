import { ValidationError, formatRfc3339Ns } from '../core/index.js';
import { exportLogsRequestType } from './otlp-logs-proto.js';
import { eventRecord, type ShipperRecord } from './shipper-record.js';

/** The attribute that routes a log record to an index (on the record or its resource). */
export const otlpIndexAttribute = 'vigil.index';

/** The largest uint64 nanosecond time OTLP can carry is far past any event time; 0 means unset. */
type Nanos = bigint;

/**
 * Reads an OTLP/HTTP logs request in its protobuf encoding. A body that is not such a message is
 * refused as a whole (ValidationError), as a collector expects for a malformed request.
 */
export function decodeOtlpProtobuf(body: Uint8Array): ShipperRecord[] {
  let message: unknown;
  try {
    message = exportLogsRequestType().decode(body);
  } catch (error) {
    throw new ValidationError(`not an OTLP ExportLogsServiceRequest: ${error instanceof Error ? error.message : String(error)}`);
  }
  return recordsOf(message);
}

/** Reads an OTLP/HTTP logs request in its JSON encoding (lowerCamelCase fields, hex trace ids). */
export function decodeOtlpJson(text: string): ShipperRecord[] {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isObject(message)) throw new ValidationError('an OTLP logs request must be a JSON object');
  return recordsOf(message);
}

/**
 * Every log record as one event: its time as `@timestamp` (the observed time when it has none),
 * `observed_timestamp`, `severity_text`, `severity_number`, `body` (a string or structured
 * value), `attributes`, `trace_id`/`span_id` (hex), `trace_flags`, `event_name`, and its
 * resource and scope as `resource.attributes` and `scope.name`/`scope.version`/`scope.attributes`.
 */
function recordsOf(message: unknown): ShipperRecord[] {
  const out: ShipperRecord[] = [];
  for (const resourceLogs of listOf(field(message, 'resourceLogs'))) {
    const resource = field(resourceLogs, 'resource');
    const resourceAttributes = attributesOf(field(resource, 'attributes'));
    const resourceOut: Record<string, unknown> = {};
    if (resourceAttributes !== null) resourceOut['attributes'] = resourceAttributes;
    putNumber(resourceOut, 'dropped_attributes_count', field(resource, 'droppedAttributesCount'));
    putString(resourceOut, 'schema_url', field(resourceLogs, 'schemaUrl'));
    const resourceIndex = stringAttribute(resourceAttributes, otlpIndexAttribute);
    for (const scopeLogs of listOf(field(resourceLogs, 'scopeLogs'))) {
      const scope = field(scopeLogs, 'scope');
      const scopeOut: Record<string, unknown> = {};
      putString(scopeOut, 'name', field(scope, 'name'));
      putString(scopeOut, 'version', field(scope, 'version'));
      const scopeAttributes = attributesOf(field(scope, 'attributes'));
      if (scopeAttributes !== null) scopeOut['attributes'] = scopeAttributes;
      putString(scopeOut, 'schema_url', field(scopeLogs, 'schemaUrl'));
      for (const log of listOf(field(scopeLogs, 'logRecords'))) {
        const event: Record<string, unknown> = {};
        const time = nanosOf(field(log, 'timeUnixNano'));
        const observed = nanosOf(field(log, 'observedTimeUnixNano'));
        const eventTime = time !== 0n ? time : observed;
        if (eventTime !== 0n) event['@timestamp'] = formatRfc3339Ns(eventTime);
        if (observed !== 0n) event['observed_timestamp'] = formatRfc3339Ns(observed);
        putString(event, 'severity_text', field(log, 'severityText'));
        putNumber(event, 'severity_number', field(log, 'severityNumber'));
        const body = field(log, 'body');
        if (body !== undefined && body !== null) event['body'] = anyValue(body);
        const attributes = attributesOf(field(log, 'attributes'));
        if (attributes !== null) event['attributes'] = attributes;
        putHex(event, 'trace_id', field(log, 'traceId'));
        putHex(event, 'span_id', field(log, 'spanId'));
        putNumber(event, 'trace_flags', field(log, 'flags'));
        putString(event, 'event_name', field(log, 'eventName'));
        putNumber(event, 'dropped_attributes_count', field(log, 'droppedAttributesCount'));
        if (Object.keys(resourceOut).length > 0) event['resource'] = resourceOut;
        if (Object.keys(scopeOut).length > 0) event['scope'] = scopeOut;
        const index = stringAttribute(attributes, otlpIndexAttribute) ?? resourceIndex;
        out.push(eventRecord(index, JSON.stringify(event)));
      }
    }
  }
  return out;
}

/**
 * A message field, own properties only: a decoded protobuf message keeps defaults on its
 * prototype, which must read as unset.
 */
function field(message: unknown, name: string): unknown {
  if (!isObject(message) || !Object.hasOwn(message, name)) return undefined;
  return message[name];
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** KeyValue list → object; null when empty. A later key of the same name wins, as in flattening. */
function attributesOf(list: unknown): Record<string, unknown> | null {
  const items = listOf(list);
  if (items.length === 0) return null;
  const out: Record<string, unknown> = {};
  for (const item of items) {
    const key = field(item, 'key');
    if (typeof key !== 'string') continue;
    out[key] = anyValue(field(item, 'value'));
  }
  return out;
}

function stringAttribute(attributes: Record<string, unknown> | null, key: string): string | null {
  const value = attributes?.[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * An AnyValue as JSON: strings, booleans and doubles as they are, 64-bit integers as numbers (as
 * digit strings past 2^53, like ingest keeps them), arrays and key-value lists as arrays and
 * objects, bytes as base64. Doubles JSON cannot hold (NaN, ±Infinity) become their names.
 */
function anyValue(value: unknown): unknown {
  if (!isObject(value)) return null;
  // protobuf messages name the member of the oneof that is set; JSON has only that member
  const kind = typeof value['value'] === 'string' && !Object.hasOwn(value, 'stringValue') ? value['value'] : firstOwnKey(value);
  const member = field(value, kind ?? '');
  switch (kind) {
    case 'stringValue':
      return typeof member === 'string' ? member : String(member);
    case 'boolValue':
      return member === true || member === 'true';
    case 'intValue':
      return integerOf(member);
    case 'doubleValue': {
      const n = typeof member === 'number' ? member : Number(member);
      return Number.isFinite(n) ? n : String(member);
    }
    case 'arrayValue':
      return listOf(field(member, 'values')).map(anyValue);
    case 'kvlistValue':
      return attributesOf(field(member, 'values')) ?? {};
    case 'bytesValue':
      return member instanceof Uint8Array ? Buffer.from(member).toString('base64') : typeof member === 'string' ? member : null;
    default:
      return null;
  }
}

function firstOwnKey(value: Record<string, unknown>): string | undefined {
  for (const key in value) if (Object.hasOwn(value, key)) return key;
  return undefined;
}

/** An int64 (a protobuf Long, a JSON string or number) as a number, or its digits past 2^53. */
function integerOf(value: unknown): number | string | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : isObject(value) ? String(value) : null;
  if (text === null || !/^-?\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

/** A fixed64 time (Long, decimal string or number) in nanoseconds; 0 when unset or unreadable. */
function nanosOf(value: unknown): Nanos {
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : typeof value === 'string' ? value : isObject(value) ? String(value) : '';
  return /^\d{1,20}$/.test(text) ? BigInt(text) : 0n;
}

function putString(out: Record<string, unknown>, key: string, value: unknown): void {
  if (typeof value === 'string' && value !== '') out[key] = value;
}

function putNumber(out: Record<string, unknown>, key: string, value: unknown): void {
  const n = typeof value === 'number' ? value : typeof value === 'string' || isObject(value) ? Number(String(value)) : Number.NaN;
  if (Number.isFinite(n) && n !== 0) out[key] = n;
}

/** Trace and span ids: bytes in protobuf, hex strings in JSON; stored as lowercase hex. */
function putHex(out: Record<string, unknown>, key: string, value: unknown): void {
  if (value instanceof Uint8Array && value.length > 0) out[key] = Buffer.from(value).toString('hex');
  else if (typeof value === 'string' && /^[0-9a-fA-F]+$/.test(value)) out[key] = value.toLowerCase();
}
