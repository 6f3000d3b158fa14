import { ValidationError } from '../core/index.js';
import { describeJsonFailure, parseJsonText, type JsonParseResult } from '../ingest/index.js';
import { AttributesWriter, bytesText, doubleText, logRecordEvent, numberText, objectText, stringText, type AttributesText, type LogRecordParts } from './otlp-log-event.js';
import type { ShipperRecord } from './shipper-record.js';

export { decodeOtlpProtobuf } from './otlp-protobuf-logs.js';

/**
 * Reads an OTLP/HTTP logs request in its JSON encoding (lowerCamelCase fields, 64-bit integers
 * as strings or numbers, hex trace ids, as OTLP specifies) into one event per log record, the
 * same events as the protobuf encoding gives (otlp-log-event.ts). A body that is not a JSON
 * object is refused as a whole.
 */
export function decodeOtlpJson(text: string): ShipperRecord[] {
  // OTLP/JSON writes 64-bit integers as strings; a sender that writes one beyond 2^53 as a number
  // gets the exact (slower) parser, which keeps its digits.
  const parsed = unquotedLongNumber.test(text) ? parseJsonText(text) : parseFast(text);
  if (!parsed.ok) throw new ValidationError(`invalid JSON: ${describeJsonFailure(parsed)}`);
  const message = parsed.value;
  if (!isObject(message)) throw new ValidationError('an OTLP logs request must be a JSON object');
  const out: ShipperRecord[] = [];
  for (const resourceLogs of listOf(message['resourceLogs'])) {
    const resource = isObject(resourceLogs) && isObject(resourceLogs['resource']) ? resourceLogs['resource'] : {};
    const resourceAttributes = attributesOf(resource['attributes']);
    const resourceText = objectText({
      attributes: resourceAttributes?.text,
      dropped_attributes_count: numberText(integerOf(resource['droppedAttributesCount'])),
      schema_url: stringText(stringOf(isObject(resourceLogs) ? resourceLogs['schemaUrl'] : undefined)),
    });
    const resourcePart = { ...(resourceText === undefined ? {} : { text: resourceText }), index: resourceAttributes?.index ?? null };
    for (const scopeLogs of listOf(isObject(resourceLogs) ? resourceLogs['scopeLogs'] : undefined)) {
      const scope = isObject(scopeLogs) && isObject(scopeLogs['scope']) ? scopeLogs['scope'] : {};
      const scopeText = objectText({
        name: stringText(stringOf(scope['name'])),
        version: stringText(stringOf(scope['version'])),
        attributes: attributesOf(scope['attributes'])?.text,
        schema_url: stringText(stringOf(isObject(scopeLogs) ? scopeLogs['schemaUrl'] : undefined)),
      });
      for (const log of listOf(isObject(scopeLogs) ? scopeLogs['logRecords'] : undefined)) {
        if (isObject(log)) out.push(logRecordEvent(partsOf(log), resourcePart, scopeText));
      }
    }
  }
  return out;
}

/** 16 digits or more right after `:`, `[` or `,`: possibly an integer beyond 2^53 written as a number. */
const unquotedLongNumber = /[:[,]\s*-?\d{16}/;

/** `JSON.parse`, with the exact parser explaining a failure. */
function parseFast(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return parseJsonText(text);
  }
}

function partsOf(log: Record<string, unknown>): LogRecordParts {
  const parts: LogRecordParts = { timeNs: nanosOf(log['timeUnixNano']), observedNs: nanosOf(log['observedTimeUnixNano']) };
  const severityText = stringOf(log['severityText']);
  if (severityText !== undefined) parts.severityText = severityText;
  const severityNumber = integerOf(log['severityNumber']);
  if (severityNumber !== undefined) parts.severityNumber = severityNumber;
  if (isObject(log['body'])) parts.body = anyValueText(log['body']);
  const attributes = attributesOf(log['attributes']);
  if (attributes !== undefined) parts.attributes = attributes;
  const traceId = hexOf(log['traceId']);
  if (traceId !== undefined) parts.traceId = traceId;
  const spanId = hexOf(log['spanId']);
  if (spanId !== undefined) parts.spanId = spanId;
  const flags = integerOf(log['flags']);
  if (flags !== undefined) parts.flags = flags;
  const eventName = stringOf(log['eventName']);
  if (eventName !== undefined) parts.eventName = eventName;
  const dropped = integerOf(log['droppedAttributesCount']);
  if (dropped !== undefined) parts.droppedAttributesCount = dropped;
  return parts;
}

/** A KeyValue list as an object's text (undefined when empty). */
function attributesOf(list: unknown): AttributesText | undefined {
  const writer = new AttributesWriter();
  for (const item of listOf(list)) {
    if (isObject(item) && typeof item['key'] === 'string') writer.add(item['key'], isObject(item['value']) ? anyValueText(item['value']) : 'null');
  }
  return writer.done();
}

/** An AnyValue as JSON text: its one member (`stringValue`, `intValue`, …) written as JSON. */
function anyValueText(value: Record<string, unknown>): string {
  for (const kind in value) {
    const member = value[kind];
    switch (kind) {
      case 'stringValue':
        return JSON.stringify(typeof member === 'string' ? member : String(member));
      case 'boolValue':
        return member === true || member === 'true' ? 'true' : 'false';
      case 'intValue': {
        const digits = typeof member === 'number' && Number.isInteger(member) ? String(member) : typeof member === 'string' && /^-?\d{1,20}$/.test(member) ? member : null;
        return digits ?? 'null'; // digits beyond 2^53 are kept as text by ingest
      }
      case 'doubleValue':
        return member === null ? 'null' : doubleText(typeof member === 'number' ? member : Number(member));
      case 'arrayValue':
        return `[${listOf(isObject(member) ? member['values'] : undefined)
          .map((item) => (isObject(item) ? anyValueText(item) : 'null'))
          .join(',')}]`;
      case 'kvlistValue':
        return attributesOf(isObject(member) ? member['values'] : undefined)?.text ?? '{}';
      case 'bytesValue':
        return typeof member === 'string' ? bytesText(Buffer.from(member, 'base64')) : 'null';
    }
  }
  return 'null';
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function integerOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) && n !== 0 ? n : undefined;
}

/** A time in nanoseconds (a decimal string or a number); 0 when unset or unreadable. */
function nanosOf(value: unknown): bigint {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value : '';
  return /^\d{1,20}$/.test(text) ? BigInt(text) : 0n;
}

/** Trace and span ids are hex strings in OTLP/JSON; stored lowercase. */
function hexOf(value: unknown): string | undefined {
  return typeof value === 'string' && /^[0-9a-fA-F]+$/.test(value) ? value.toLowerCase() : undefined;
}
