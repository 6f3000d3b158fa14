import { ValidationError } from '../core/index.js';
import { describeJsonFailure, parseJsonText, type JsonParseResult } from '../ingest/index.js';
import { scanOtlpJson } from './otlp-json-scan.js';
import { boolValueText, bytesValueText, doubleValueText, intValueText, logRecordParts, resourcePart, scopeText } from './otlp-json-values.js';
import { AttributesWriter, logRecordEvent, type AttributesText } from './otlp-log-event.js';
import type { ShipperRecord } from './shipper-record.js';

export { decodeOtlpProtobuf } from './otlp-protobuf-logs.js';

/**
 * Reads an OTLP/HTTP logs request in its JSON encoding (lowerCamelCase fields, 64-bit integers
 * as strings or numbers, hex trace ids, as OTLP specifies) into one event per log record, the
 * same events as the protobuf encoding gives (otlp-log-event.ts). A body that is not a JSON
 * object is refused as a whole.
 */
export function decodeOtlpJson(text: string): ShipperRecord[] {
  return scanOtlpJson(text) ?? decodeParsedOtlpJson(text);
}

/**
 * The same from the parsed value: for what the scan leaves to it (otlp-json-scan.ts), and the
 * reader whose answers the scan must give (otlp-json-scan.test.ts).
 */
export function decodeParsedOtlpJson(text: string): ShipperRecord[] {
  // OTLP/JSON writes 64-bit integers as strings; a sender that writes one beyond 2^53 as a number
  // gets the exact (slower) parser, which keeps its digits.
  const parsed = unquotedLongNumber.test(text) ? parseJsonText(text) : parseFast(text);
  if (!parsed.ok) throw new ValidationError(`invalid JSON: ${describeJsonFailure(parsed)}`);
  const message = parsed.value;
  if (!isObject(message)) throw new ValidationError('an OTLP logs request must be a JSON object');
  const out: ShipperRecord[] = [];
  for (const resourceLogs of listOf(message['resourceLogs'])) {
    if (!isObject(resourceLogs)) continue;
    const resource = isObject(resourceLogs['resource']) ? resourceLogs['resource'] : {};
    const resourceOf = resourcePart(attributesOf(resource['attributes']), resource['droppedAttributesCount'], resourceLogs['schemaUrl']);
    for (const scopeLogs of listOf(resourceLogs['scopeLogs'])) {
      if (!isObject(scopeLogs)) continue;
      const scope = isObject(scopeLogs['scope']) ? scopeLogs['scope'] : {};
      const scopeOf = scopeText(scope['name'], scope['version'], attributesOf(scope['attributes']), scopeLogs['schemaUrl']);
      for (const log of listOf(scopeLogs['logRecords'])) {
        if (isObject(log))
          out.push(
            logRecordEvent(
              logRecordParts({ ...log, body: isObject(log['body']) ? anyValueText(log['body']) : undefined, attributes: attributesOf(log['attributes']) }),
              resourceOf,
              scopeOf,
            ),
          );
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
        return boolValueText(member);
      case 'intValue':
        return intValueText(member);
      case 'doubleValue':
        return doubleValueText(member);
      case 'arrayValue':
        return `[${listOf(isObject(member) ? member['values'] : undefined)
          .map((item) => (isObject(item) ? anyValueText(item) : 'null'))
          .join(',')}]`;
      case 'kvlistValue':
        return attributesOf(isObject(member) ? member['values'] : undefined)?.text ?? '{}';
      case 'bytesValue':
        return bytesValueText(member);
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
