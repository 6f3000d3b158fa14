import { formatRfc3339Ns } from '../core/index.js';
import { eventRecord, type ShipperRecord } from './shipper-record.js';

/** The attribute that routes a log record to an index (on the record or its resource). */
export const otlpIndexAttribute = 'vigil.index';

const indexKeyText = JSON.stringify(otlpIndexAttribute);

/** An OTLP log record's parts, each value already JSON text; unset ones left out. */
export interface LogRecordParts {
  timeNs: bigint;
  observedNs: bigint;
  severityText?: string;
  severityNumber?: number;
  body?: string;
  attributes?: AttributesText;
  traceId?: string;
  spanId?: string;
  flags?: number;
  eventName?: string;
  droppedAttributesCount?: number;
}

/** A key-value list written as a JSON object's text, and its `vigil.index` value if it has one. */
export interface AttributesText {
  readonly text: string;
  readonly index: string | null;
}

/**
 * Builds the JSON object text of a key-value list from its members (`"key":value` texts). A key
 * given twice appears twice; the later one wins when the line is read, as in flattening.
 */
export class AttributesWriter {
  private members: string[] = [];
  private index: string | null = null;

  add(key: string, valueText: string): void {
    this.addText(JSON.stringify(key), valueText);
  }

  /** A member whose key is already JSON text, written as `JSON.stringify` writes it. */
  addText(keyText: string, valueText: string): void {
    this.members.push(`${keyText}:${valueText}`);
    if (keyText === indexKeyText && valueText.charCodeAt(0) === 34) {
      const value = JSON.parse(valueText) as string;
      this.index = value === '' ? null : value;
    }
  }

  /** The object text, or undefined when the list is empty. */
  done(): AttributesText | undefined {
    return this.members.length === 0 ? undefined : { text: `{${this.members.join(',')}}`, index: this.index };
  }
}

/** `{…}` of the members given (undefined ones left out), or undefined when none is given. */
export function objectText(members: Readonly<Record<string, string | undefined>>): string | undefined {
  const parts: string[] = [];
  for (const key in members) if (members[key] !== undefined) parts.push(`"${key}":${members[key]}`);
  return parts.length === 0 ? undefined : `{${parts.join(',')}}`;
}

/** A string's JSON text, or undefined for an empty one (OTLP's unset). */
export function stringText(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : JSON.stringify(value);
}

/** A number's text, or undefined for 0 (OTLP's unset). */
export function numberText(value: number | undefined): string | undefined {
  return value === undefined || value === 0 || !Number.isFinite(value) ? undefined : String(value);
}

/**
 * One log record as the stored event (docs/shippers.md, "OTLP/HTTP logs"): `@timestamp` (its time,
 * else its observed time), `observed_timestamp`, `severity_text`, `severity_number`, `body`,
 * `attributes`, `trace_id`, `span_id`, `trace_flags`, `event_name`, `dropped_attributes_count`,
 * then its `resource` and `scope` objects; routed by `vigil.index` on the record, else on its
 * resource.
 */
export function logRecordEvent(parts: LogRecordParts, resource: { readonly text?: string; readonly index: string | null }, scopeText: string | undefined): ShipperRecord {
  const eventNs = parts.timeNs !== 0n ? parts.timeNs : parts.observedNs;
  const text = objectText({
    '@timestamp': eventNs === 0n ? undefined : `"${formatRfc3339Ns(eventNs)}"`,
    observed_timestamp: parts.observedNs === 0n ? undefined : `"${formatRfc3339Ns(parts.observedNs)}"`,
    severity_text: stringText(parts.severityText),
    severity_number: numberText(parts.severityNumber),
    body: parts.body,
    attributes: parts.attributes?.text,
    trace_id: stringText(parts.traceId),
    span_id: stringText(parts.spanId),
    trace_flags: numberText(parts.flags),
    event_name: stringText(parts.eventName),
    dropped_attributes_count: numberText(parts.droppedAttributesCount),
    resource: resource.text,
    scope: scopeText,
  });
  return eventRecord(parts.attributes?.index ?? resource.index, text ?? '{}');
}

/** A double as JSON text: its digits, or its name when JSON cannot hold it (NaN, ±Infinity). */
export function doubleText(value: number): string {
  return Number.isFinite(value) ? JSON.stringify(value) : JSON.stringify(String(value));
}

/** Bytes as JSON text: base64. */
export function bytesText(value: Uint8Array): string {
  return JSON.stringify(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'));
}

/** Trace and span ids as lowercase hex, or undefined when empty. */
export function hexOf(value: Uint8Array): string | undefined {
  return value.length === 0 ? undefined : Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
}
