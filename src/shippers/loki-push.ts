import { ValidationError, formatRfc3339Ns } from '../core/index.js';
import { pushRequestType } from './loki-push-proto.js';
import { eventRecord, invalidRecord, type ShipperRecord } from './shipper-record.js';

/** The stream label that routes a stream's entries to an index. */
export const lokiIndexLabel = 'vigil_index';

/**
 * Reads a Loki push body in its JSON form: `{"streams": [{"stream": {labels}, "values":
 * [["<unix ns>", "<line>", {structured metadata}?], ...]}]}`. A body that is not that shape is
 * refused as a whole; an entry that is not `[time, line]` is an invalid record.
 */
export function decodeLokiJson(text: string): ShipperRecord[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const streams = isObject(body) ? body['streams'] : undefined;
  if (!Array.isArray(streams)) throw new ValidationError('a Loki push body must be {"streams": [...]}');
  const out: ShipperRecord[] = [];
  streams.forEach((stream: unknown, s) => {
    const labels = isObject(stream) && isObject(stream['stream']) ? stringMap(stream['stream']) : null;
    const values = isObject(stream) && Array.isArray(stream['values']) ? (stream['values'] as unknown[]) : null;
    if (labels === null || values === null) {
      out.push(invalidRecord(null, `streams[${s}]: expected {"stream": {labels}, "values": [...]}`));
      return;
    }
    values.forEach((entry, e) => {
      const where = `streams[${s}].values[${e}]`;
      if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3 || typeof entry[1] !== 'string') {
        out.push(invalidRecord(labels[lokiIndexLabel] ?? null, `${where}: expected ["<unix epoch in nanoseconds>", "<log line>"]`));
        return;
      }
      const ns = typeof entry[0] === 'string' && /^\d{1,19}$/.test(entry[0]) ? BigInt(entry[0]) : null;
      if (ns === null) {
        out.push(invalidRecord(labels[lokiIndexLabel] ?? null, `${where}: the timestamp must be a string of unix nanoseconds`));
        return;
      }
      const metadata = entry.length === 3 ? (isObject(entry[2]) ? stringMap(entry[2]) : null) : {};
      if (metadata === null) {
        out.push(invalidRecord(labels[lokiIndexLabel] ?? null, `${where}: structured metadata must be an object of strings`));
        return;
      }
      out.push(lokiEntry(labels, ns, entry[1], metadata));
    });
  });
  return out;
}

/** Reads a Loki push body in its protobuf form (already snappy-decompressed). */
export function decodeLokiProtobuf(body: Uint8Array): ShipperRecord[] {
  let message: {
    streams?: { labels?: string; entries?: { timestamp?: { seconds?: unknown; nanos?: number }; line?: string; structuredMetadata?: { name?: string; value?: string }[] }[] }[];
  };
  try {
    message = pushRequestType().decode(body) as typeof message;
  } catch (error) {
    throw new ValidationError(`not a Loki PushRequest: ${error instanceof Error ? error.message : String(error)}`);
  }
  const out: ShipperRecord[] = [];
  (message.streams ?? []).forEach((stream, s) => {
    const labels = parseLabelSet(stream.labels ?? '');
    for (const entry of stream.entries ?? []) {
      if (labels === null) {
        out.push(invalidRecord(null, `streams[${s}]: labels ${JSON.stringify((stream.labels ?? '').slice(0, 200))} are not a label set like {job="app"}`));
        continue;
      }
      const seconds = BigInt(String(entry.timestamp?.seconds ?? 0));
      const ns = seconds * 1_000_000_000n + BigInt(entry.timestamp?.nanos ?? 0);
      const metadata: Record<string, string> = {};
      for (const pair of entry.structuredMetadata ?? []) if (pair.name) metadata[pair.name] = pair.value ?? '';
      out.push(lokiEntry(labels, ns, entry.line ?? '', metadata));
    }
  });
  return out;
}

/** One entry as an event: the stream's labels, `structured_metadata`, then `message` and `@timestamp`. */
function lokiEntry(labels: Readonly<Record<string, string>>, ns: bigint, line: string, metadata: Readonly<Record<string, string>>): ShipperRecord {
  const event: Record<string, unknown> = { ...labels };
  if (Object.keys(metadata).length > 0) event['structured_metadata'] = metadata;
  event['message'] = line;
  if (ns > 0n) event['@timestamp'] = formatRfc3339Ns(ns);
  return eventRecord(labels[lokiIndexLabel] ?? null, JSON.stringify(event));
}

/**
 * A Prometheus label set, `{job="app", host="web-1"}` (values with `\"`, `\\` and `\n`
 * escapes), as an object; null when the text is not one.
 */
export function parseLabelSet(text: string): Record<string, string> | null {
  const labels: Record<string, string> = {};
  let i = skipSpaces(text, 0);
  if (text[i] !== '{') return null;
  i = skipSpaces(text, i + 1);
  if (text[i] === '}') return skipSpaces(text, i + 1) === text.length ? labels : null;
  for (;;) {
    const name = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(text.slice(i, i + 1024))?.[0];
    if (name === undefined) return null;
    i = skipSpaces(text, i + name.length);
    if (text[i] !== '=') return null;
    i = skipSpaces(text, i + 1);
    if (text[i] !== '"') return null;
    let value = '';
    for (i++; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === '\\') {
        i++;
        const escaped = text[i];
        value += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : (escaped ?? '');
      } else {
        value += text[i];
      }
    }
    if (text[i] !== '"') return null;
    labels[name] = value;
    i = skipSpaces(text, i + 1);
    if (text[i] === ',') {
      i = skipSpaces(text, i + 1);
      if (text[i] === '}') return skipSpaces(text, i + 1) === text.length ? labels : null;
      continue;
    }
    if (text[i] === '}') return skipSpaces(text, i + 1) === text.length ? labels : null;
    return null;
  }
}

function skipSpaces(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object of string values; null when any value is not a string. */
function stringMap(value: Record<string, unknown>): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') return null;
    out[key] = v;
  }
  return out;
}
