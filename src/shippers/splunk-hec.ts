import { isJsonObject, parseJsonText } from '../ingest/index.js';
import { eventRecord, invalidRecord, type ShipperRecord } from './shipper-record.js';

/** HEC's answer bodies: `{"text": "...", "code": N}` with the HTTP status Splunk gives each code. */
export const hecStatus = {
  success: { code: 0, http: 200, text: 'Success' },
  tokenRequired: { code: 2, http: 401, text: 'Token is required' },
  invalidAuthorization: { code: 3, http: 401, text: 'Invalid authorization' },
  invalidToken: { code: 4, http: 403, text: 'Invalid token' },
  noData: { code: 5, http: 400, text: 'No data' },
  invalidDataFormat: { code: 6, http: 400, text: 'Invalid data format' },
  incorrectIndex: { code: 7, http: 400, text: 'Incorrect index' },
  serverBusy: { code: 9, http: 503, text: 'Server is busy' },
  invalidChannel: { code: 11, http: 400, text: 'Invalid data channel' },
  eventRequired: { code: 12, http: 400, text: 'Event field is required' },
  eventBlank: { code: 13, http: 400, text: 'Event field cannot be blank' },
  healthy: { code: 17, http: 200, text: 'HEC is healthy' },
} as const;

export type HecStatus = (typeof hecStatus)[keyof typeof hecStatus];

/** Where HEC's own fields go when the event does not name them itself. */
export interface HecDefaults {
  readonly host?: string;
  readonly source?: string;
  readonly sourcetype?: string;
  readonly index?: string;
}

/** A record of the event endpoint, with the HEC status that made it invalid. */
export interface HecRecord {
  readonly record: ShipperRecord;
  readonly status: HecStatus | null;
}

/**
 * Reads the body of `/services/collector/event`: JSON objects one after another (with or
 * without whitespace between them), each `{"event": ..., "time", "host", "source",
 * "sourcetype", "index", "fields"}`. The stored event is the `event` object's own keys (a string
 * or other value becomes `message`), after `time`, `host`, `source`, `sourcetype` and the
 * `fields` entries, which the event's own keys of the same name override; `index` routes it.
 * An object that is not valid JSON is one invalid record; reading resumes at the next line that
 * starts an object, so the events after it are kept.
 */
export function parseHecEvents(text: string, defaults: HecDefaults): HecRecord[] {
  const out: HecRecord[] = [];
  let pos = 0;
  const n = text.length;
  while (pos < n) {
    pos = skipWhitespace(text, pos);
    if (pos >= n) break;
    const end = text.charCodeAt(pos) === 123 ? objectEnd(text, pos) : -1;
    if (end < 0) {
      const resume = nextLineObject(text, pos + 1);
      out.push({ record: invalidRecord(defaults.index ?? null, `event ${out.length}: not a JSON object`), status: hecStatus.invalidDataFormat });
      pos = resume;
      continue;
    }
    const parsed = parseJsonText(text.slice(pos, end));
    if (!parsed.ok || !isJsonObject(parsed.value)) {
      out.push({ record: invalidRecord(defaults.index ?? null, `event ${out.length}: invalid JSON`), status: hecStatus.invalidDataFormat });
      pos = nextLineObject(text, pos + 1);
      continue;
    }
    out.push(hecEvent(parsed.value, defaults, out.length));
    pos = end;
  }
  return out;
}

/** Reads the body of `/services/collector/raw`: each non-blank line is the event `{"message": line}`. */
export function parseHecRaw(text: string, defaults: HecDefaults): ShipperRecord[] {
  const out: ShipperRecord[] = [];
  const meta = metadataOf(undefined, defaults.host, defaults.source, defaults.sourcetype, undefined);
  for (const rawLine of text.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line.trim() === '') continue;
    out.push(eventRecord(defaults.index ?? null, JSON.stringify({ ...meta, message: line })));
  }
  return out;
}

function hecEvent(envelope: Record<string, unknown>, defaults: HecDefaults, position: number): HecRecord {
  const index = typeof envelope['index'] === 'string' && envelope['index'] !== '' ? envelope['index'] : (defaults.index ?? null);
  if (!('event' in envelope)) return { record: invalidRecord(index, `event ${position}: the event field is required`), status: hecStatus.eventRequired };
  const event = envelope['event'];
  if (event === null || event === '' || (isJsonObject(event) && Object.keys(event).length === 0)) {
    return { record: invalidRecord(index, `event ${position}: the event field cannot be blank`), status: hecStatus.eventBlank };
  }
  const text = (key: string, fallback: string | undefined): string | undefined => {
    const value = envelope[key];
    return typeof value === 'string' ? value : fallback;
  };
  const fields = isJsonObject(envelope['fields']) ? envelope['fields'] : undefined;
  const out = metadataOf(envelope['time'], text('host', defaults.host), text('source', defaults.source), text('sourcetype', defaults.sourcetype), fields);
  if (isJsonObject(event)) Object.assign(out, event);
  else out['message'] = event;
  return { record: eventRecord(index, JSON.stringify(out)), status: null };
}

function metadataOf(time: unknown, host: string | undefined, source: string | undefined, sourcetype: string | undefined, fields: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (time !== undefined && time !== null && time !== '') out['time'] = time;
  if (host !== undefined) out['host'] = host;
  if (source !== undefined) out['source'] = source;
  if (sourcetype !== undefined) out['sourcetype'] = sourcetype;
  if (fields !== undefined) Object.assign(out, fields);
  return out;
}

function skipWhitespace(text: string, pos: number): number {
  while (pos < text.length) {
    const c = text.charCodeAt(pos);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
    pos++;
  }
  return pos;
}

/**
 * Where the object starting at `start` ends (just past its closing brace), tracking strings and
 * nesting only; -1 when the text ends first. Whether it is valid JSON is the parser's to say.
 */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // a string: skip to its closing quote, past escapes
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 || c === 91) {
      depth++;
    } else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

/** The start of the next line (from `from`) whose first non-blank character opens an object, or the end. */
function nextLineObject(text: string, from: number): number {
  let nl = text.indexOf('\n', from);
  while (nl >= 0) {
    const at = skipWhitespace(text, nl + 1);
    if (text.charCodeAt(at) === 123) return at;
    nl = text.indexOf('\n', nl + 1);
  }
  return text.length;
}
