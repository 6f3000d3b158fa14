import { bytesText, doubleText, numberText, objectText, stringText, type AttributesText, type LogRecordParts } from './otlp-log-event.js';

/**
 * How OTLP/JSON's members read, one rule each, shared by the two readers of the JSON encoding
 * (otlp-logs.ts on a parsed value, otlp-json-scan.ts on the text) so they cannot disagree; the
 * resource's and scope's parts are also the protobuf reader's (otlp-protobuf-logs.ts).
 * OTLP/JSON writes 64-bit integers as strings or numbers and ids as hex; a member of another
 * type reads as unset.
 */

/** A log record's members, scalars as read from the JSON, body and attributes already JSON text. */
export interface LogRecordMembers {
  timeUnixNano?: unknown;
  observedTimeUnixNano?: unknown;
  severityText?: unknown;
  severityNumber?: unknown;
  body?: string | undefined;
  attributes?: AttributesText | undefined;
  traceId?: unknown;
  spanId?: unknown;
  flags?: unknown;
  eventName?: unknown;
  droppedAttributesCount?: unknown;
}

export function logRecordParts(log: LogRecordMembers): LogRecordParts {
  const parts: LogRecordParts = { timeNs: nanosOf(log.timeUnixNano), observedNs: nanosOf(log.observedTimeUnixNano) };
  const severityText = stringOf(log.severityText);
  if (severityText !== undefined) parts.severityText = severityText;
  const severityNumber = integerOf(log.severityNumber);
  if (severityNumber !== undefined) parts.severityNumber = severityNumber;
  if (log.body !== undefined) parts.body = log.body;
  if (log.attributes !== undefined) parts.attributes = log.attributes;
  const traceId = hexOf(log.traceId);
  if (traceId !== undefined) parts.traceId = traceId;
  const spanId = hexOf(log.spanId);
  if (spanId !== undefined) parts.spanId = spanId;
  const flags = integerOf(log.flags);
  if (flags !== undefined) parts.flags = flags;
  const eventName = stringOf(log.eventName);
  if (eventName !== undefined) parts.eventName = eventName;
  const dropped = integerOf(log.droppedAttributesCount);
  if (dropped !== undefined) parts.droppedAttributesCount = dropped;
  return parts;
}

/** A resource's part of its records' events: its object's text and its `vigil.index`. */
export interface ResourcePart {
  readonly text?: string;
  readonly index: string | null;
}

export function resourcePart(attributes: AttributesText | undefined, droppedAttributesCount: unknown, schemaUrl: unknown): ResourcePart {
  const text = objectText({
    attributes: attributes?.text,
    dropped_attributes_count: numberText(integerOf(droppedAttributesCount)),
    schema_url: stringText(stringOf(schemaUrl)),
  });
  return { ...(text === undefined ? {} : { text }), index: attributes?.index ?? null };
}

/** A scope's object text (undefined when it has nothing set). */
export function scopeText(name: unknown, version: unknown, attributes: AttributesText | undefined, schemaUrl: unknown): string | undefined {
  return objectText({
    name: stringText(stringOf(name)),
    version: stringText(stringOf(version)),
    attributes: attributes?.text,
    schema_url: stringText(stringOf(schemaUrl)),
  });
}

/** AnyValue's `boolValue`. */
export function boolValueText(member: unknown): string {
  return member === true || member === 'true' ? 'true' : 'false';
}

/** AnyValue's `intValue`: digits (those beyond 2^53 are kept as text by ingest), else null. */
export function intValueText(member: unknown): string {
  if (typeof member === 'number' && Number.isInteger(member)) return String(member);
  return typeof member === 'string' && /^-?\d{1,20}$/.test(member) ? member : 'null';
}

/** AnyValue's `doubleValue` (a number or its text). */
export function doubleValueText(member: unknown): string {
  return member === null ? 'null' : doubleText(typeof member === 'number' ? member : Number(member));
}

/** AnyValue's `bytesValue`: base64 in OTLP/JSON. */
export function bytesValueText(member: unknown): string {
  return typeof member === 'string' ? bytesText(Buffer.from(member, 'base64')) : 'null';
}

export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function integerOf(value: unknown): number | undefined {
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
