import protobuf from 'protobufjs';
import { ValidationError } from '../core/index.js';
import { resourcePart, scopeText, type ResourcePart } from './otlp-json-values.js';
import { AttributesWriter, bytesText, doubleText, hexOf, logRecordEvent, type AttributesText, type LogRecordParts } from './otlp-log-event.js';
import type { ShipperRecord } from './shipper-record.js';

type Reader = protobuf.Reader;

/**
 * Reads an OTLP/HTTP logs request in its protobuf encoding straight from the wire with
 * protobufjs's Reader (field numbers of `opentelemetry.proto.collector.logs.v1`, as in
 * otlp-logs-proto.ts), writing each record's event text as it goes: no message objects are
 * built, which is most of the cost of decoding a record with many attributes. Unknown fields are
 * skipped, as protobuf requires. A body that is not such a message is refused as a whole.
 */
export function decodeOtlpProtobuf(body: Uint8Array): ShipperRecord[] {
  const out: ShipperRecord[] = [];
  const r = protobuf.Reader.create(body);
  try {
    while (r.pos < r.len) {
      const tag = r.uint32();
      if (tag === ((1 << 3) | 2)) resourceLogs(r, messageEnd(r), out);
      else r.skipType(tag & 7);
    }
  } catch (error) {
    throw new ValidationError(`not an OTLP ExportLogsServiceRequest: ${error instanceof Error ? error.message : String(error)}`);
  }
  return out;
}

/** Where the length-delimited message starting here ends. */
function messageEnd(r: Reader): number {
  const length = r.uint32();
  const end = r.pos + length;
  if (end > r.len) throw new RangeError(`a message of ${length} bytes runs past the end`);
  return end;
}

/** The spans of a message's length-delimited fields, by field number; other fields skipped. */
function spans(r: Reader, end: number, fields: readonly number[]): Map<number, [number, number][]> {
  const found = new Map<number, [number, number][]>();
  while (r.pos < end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if ((tag & 7) === 2 && fields.includes(field)) {
      const fieldEnd = messageEnd(r);
      const list = found.get(field) ?? [];
      list.push([r.pos, fieldEnd]);
      found.set(field, list);
      r.pos = fieldEnd;
    } else {
      r.skipType(tag & 7);
    }
  }
  return found;
}

function resourceLogs(r: Reader, end: number, out: ShipperRecord[]): void {
  // The resource may come after its scopes on the wire: read it first.
  const found = spans(r, end, [1, 2, 3]);
  let attributes: AttributesText | undefined;
  let dropped = 0;
  const [resourceSpan] = found.get(1) ?? [];
  if (resourceSpan !== undefined) {
    r.pos = resourceSpan[0];
    const writer = new AttributesWriter();
    while (r.pos < resourceSpan[1]) {
      const tag = r.uint32();
      if (tag === ((1 << 3) | 2)) keyValue(r, messageEnd(r), writer);
      else if (tag === ((2 << 3) | 0)) dropped = r.uint32();
      else r.skipType(tag & 7);
    }
    attributes = writer.done();
  }
  const resource = resourcePart(attributes, dropped, stringAt(r, found.get(3)?.[0]));
  for (const [start, scopeEnd] of found.get(2) ?? []) {
    r.pos = start;
    scopeLogs(r, scopeEnd, resource, out);
  }
  r.pos = end;
}

function scopeLogs(r: Reader, end: number, resource: ResourcePart, out: ShipperRecord[]): void {
  const found = spans(r, end, [1, 2, 3]);
  let name: string | undefined;
  let version: string | undefined;
  let attributes: AttributesText | undefined;
  const [scopeSpan] = found.get(1) ?? [];
  if (scopeSpan !== undefined) {
    r.pos = scopeSpan[0];
    const writer = new AttributesWriter();
    while (r.pos < scopeSpan[1]) {
      const tag = r.uint32();
      if (tag === ((1 << 3) | 2)) name = r.string();
      else if (tag === ((2 << 3) | 2)) version = r.string();
      else if (tag === ((3 << 3) | 2)) keyValue(r, messageEnd(r), writer);
      else r.skipType(tag & 7);
    }
    attributes = writer.done();
  }
  const scope = scopeText(name, version, attributes, stringAt(r, found.get(3)?.[0]));
  for (const [start, recordEnd] of found.get(2) ?? []) {
    r.pos = start;
    out.push(logRecordEvent(logRecord(r, recordEnd), resource, scope));
  }
  r.pos = end;
}

function logRecord(r: Reader, end: number): LogRecordParts {
  const parts: LogRecordParts = { timeNs: 0n, observedNs: 0n };
  const attributes = new AttributesWriter();
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | 1:
        parts.timeNs = fixed64(r);
        break;
      case (11 << 3) | 1:
        parts.observedNs = fixed64(r);
        break;
      case (2 << 3) | 0:
        parts.severityNumber = r.int32();
        break;
      case (3 << 3) | 2:
        parts.severityText = r.string();
        break;
      case (5 << 3) | 2:
        parts.body = anyValue(r, messageEnd(r));
        break;
      case (6 << 3) | 2:
        keyValue(r, messageEnd(r), attributes);
        break;
      case (7 << 3) | 0:
        parts.droppedAttributesCount = r.uint32();
        break;
      case (8 << 3) | 5:
        parts.flags = r.fixed32();
        break;
      case (9 << 3) | 2:
        parts.traceId = hexOf(r.bytes());
        break;
      case (10 << 3) | 2:
        parts.spanId = hexOf(r.bytes());
        break;
      case (12 << 3) | 2:
        parts.eventName = r.string();
        break;
      default:
        r.skipType(tag & 7);
    }
  }
  const attributesText = attributes.done();
  if (attributesText !== undefined) parts.attributes = attributesText;
  return parts;
}

/** A KeyValue message, added to the writer. */
function keyValue(r: Reader, end: number, into: AttributesWriter): void {
  let key: string | null = null;
  let value = 'null';
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | 2)) key = r.string();
    else if (tag === ((2 << 3) | 2)) value = anyValue(r, messageEnd(r));
    else r.skipType(tag & 7);
  }
  if (key !== null) into.add(key, value);
}

/** An AnyValue message as JSON text (the last member set wins, as protobuf reads a oneof). */
function anyValue(r: Reader, end: number): string {
  let out = 'null';
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | 2:
        out = JSON.stringify(r.string());
        break;
      case (2 << 3) | 0:
        out = r.bool() ? 'true' : 'false';
        break;
      case (3 << 3) | 0:
        out = int64Text(r); // digits; ingest keeps those beyond 2^53 as text
        break;
      case (4 << 3) | 1:
        out = doubleText(r.double());
        break;
      case (5 << 3) | 2: {
        const arrayEnd = messageEnd(r);
        const values: string[] = [];
        while (r.pos < arrayEnd) {
          const item = r.uint32();
          if (item === ((1 << 3) | 2)) values.push(anyValue(r, messageEnd(r)));
          else r.skipType(item & 7);
        }
        out = `[${values.join(',')}]`;
        break;
      }
      case (6 << 3) | 2: {
        const listEnd = messageEnd(r);
        const members = new AttributesWriter();
        while (r.pos < listEnd) {
          const item = r.uint32();
          if (item === ((1 << 3) | 2)) keyValue(r, messageEnd(r), members);
          else r.skipType(item & 7);
        }
        out = members.done()?.text ?? '{}';
        break;
      }
      case (7 << 3) | 2:
        out = bytesText(r.bytes());
        break;
      default:
        r.skipType(tag & 7);
    }
  }
  return out;
}

/**
 * An int64 varint as its decimal digits, read from the buffer directly: protobufjs's `int64()`
 * builds a Long and its `toString` divides it digit group by digit group, a tenth of decoding a
 * Windows event. Up to 7 bytes (49 bits) the sum is an exact double; longer ones (large or
 * negative values, written as 10 bytes) go through BigInt.
 */
function int64Text(r: Reader): string {
  const buf = r.buf;
  let value = 0;
  let scale = 1;
  for (let at = r.pos; at < r.pos + 7 && at < r.len; at++) {
    const byte = buf[at] as number;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) {
      r.pos = at + 1;
      return String(value);
    }
    scale *= 128;
  }
  let big = 0n;
  let shift = 0n;
  for (let at = r.pos; at < r.len && shift < 70n; at++, shift += 7n) {
    const byte = buf[at] as number;
    big |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) {
      r.pos = at + 1;
      return BigInt.asIntN(64, big).toString();
    }
  }
  throw new RangeError('an int64 varint runs past the end or past 10 bytes');
}

/** A fixed64 (nanoseconds) as a bigint: two little-endian 32-bit halves. */
function fixed64(r: Reader): bigint {
  const low = r.fixed32();
  const high = r.fixed32();
  return (BigInt(high) << 32n) | BigInt(low);
}

function stringAt(r: Reader, span: [number, number] | undefined): string | undefined {
  if (span === undefined) return undefined;
  return Buffer.from(r.buf.buffer, r.buf.byteOffset + span[0], span[1] - span[0]).toString('utf8');
}
