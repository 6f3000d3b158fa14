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
    const scanned = text.charCodeAt(pos) === 123 ? topLevelMembers(text, pos) : null;
    const fast = scanned === null ? null : splicedHecEvent(scanned.members, defaults, out.length);
    if (fast !== null && scanned !== null) {
      out.push(fast);
      pos = scanned.end;
      continue;
    }
    const end = scanned?.end ?? (text.charCodeAt(pos) === 123 ? objectEnd(text, pos) : -1);
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

/**
 * The common case without parsing and writing the event again: the envelope's top-level members
 * are located by a scan, and the stored line is the event's own text with HEC's fields spliced in
 * front (the event's keys would win, so a field is spliced only when its name appears nowhere in
 * the event's text). Null sends the envelope to the full path: `fields`, a possible clash, an
 * envelope the scan cannot read (which the full path then reports).
 */
function splicedHecEvent(members: ReadonlyMap<string, string>, defaults: HecDefaults, position: number): HecRecord | null {
  if (members.has('fields')) return null;
  const event = members.get('event');
  if (event === undefined) return null;
  const indexText = members.get('index');
  let index = defaults.index ?? null;
  if (indexText !== undefined) {
    const value = parseScalar(indexText);
    if (value === undefined) return null;
    if (typeof value === 'string' && value !== '') index = value;
  }
  const c = event.charCodeAt(0);
  if (event === '""' || event === 'null' || (c === 123 && event.slice(1, -1).trim() === '')) {
    return { record: invalidRecord(index, `event ${position}: the event field cannot be blank`), status: hecStatus.eventBlank };
  }
  const isObject = c === 123;
  if (!isObject && c !== 34) return null; // numbers and arrays: the full path stores them
  const spliced: string[] = [];
  const put = (key: string, text: string | undefined): boolean => {
    if (text === undefined) return true;
    if (isObject && event.includes(`"${key}"`)) return false;
    spliced.push(`"${key}":${text}`);
    return true;
  };
  const time = members.get('time');
  if (time !== undefined && time !== '""' && time !== 'null' && !(time.charCodeAt(0) === 34 || /^-?\d/.test(time))) return null;
  const textOf = (key: 'host' | 'source' | 'sourcetype'): string | undefined => {
    const given = members.get(key);
    if (given !== undefined) return given.charCodeAt(0) === 34 ? given : undefined;
    const fallback = defaults[key];
    return fallback === undefined ? undefined : JSON.stringify(fallback);
  };
  const ok =
    put('time', time === '""' || time === 'null' ? undefined : time) && put('host', textOf('host')) && put('source', textOf('source')) && put('sourcetype', textOf('sourcetype'));
  if (!ok) return null;
  const body = event.includes('\n') || event.includes('\r') ? event.replace(/[\r\n]/g, ' ') : event; // newlines there are whitespace
  const prefix = spliced.join(',');
  let line: string;
  if (!isObject) line = `{${prefix}${prefix === '' ? '' : ','}"message":${body}}`;
  else if (prefix === '') line = body;
  else line = `{${prefix},${body.slice(1)}`;
  return { record: eventRecord(index, line), status: null };
}

/**
 * The members of the JSON object starting at `start`, key to value text, and where it ends,
 * found by a scan that tracks strings and nesting (values are not checked: ingest parses the line
 * it is given). Null when the text there is not a sequence of `"key": value` members closed by
 * `}`, or a key appears twice.
 */
function topLevelMembers(text: string, start: number): { members: Map<string, string>; end: number } | null {
  const members = new Map<string, string>();
  let i = skipWhitespace(text, start + 1);
  if (text.charCodeAt(i) === 125) return { members, end: i + 1 };
  for (;;) {
    if (text.charCodeAt(i) !== 34) return null;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return null;
    const rawKey = text.slice(i + 1, keyEnd - 1);
    const key = rawKey.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : rawKey;
    i = skipWhitespace(text, keyEnd);
    if (text.charCodeAt(i) !== 58) return null;
    const valueStart = skipWhitespace(text, i + 1);
    const c = text.charCodeAt(valueStart);
    let end: number;
    if (c === 34) end = stringEnd(text, valueStart);
    else if (c === 123 || c === 91) end = objectEnd(text, valueStart);
    else {
      scalarEnd.lastIndex = valueStart;
      end = scalarEnd.exec(text)?.index ?? text.length;
      if (end === valueStart) return null;
    }
    if (end < 0 || members.has(key)) return null;
    members.set(key, text.slice(valueStart, end));
    i = skipWhitespace(text, end);
    const next = text.charCodeAt(i);
    if (next === 125) return { members, end: i + 1 };
    if (next !== 44) return null;
    i = skipWhitespace(text, i + 1);
  }
}

/** Where a scalar (number, true, false, null) ends. */
const scalarEnd = /[,}\s]/g;

/** Just past the closing quote of the string starting at `start`; -1 when it does not close. */
function stringEnd(text: string, start: number): number {
  for (let quote = text.indexOf('"', start + 1); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return -1;
}

/** A scalar's value, or undefined when its text is not valid JSON. */
function parseScalar(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function metadataOf(
  time: unknown,
  host: string | undefined,
  source: string | undefined,
  sourcetype: string | undefined,
  fields: Record<string, unknown> | undefined,
): Record<string, unknown> {
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
  structural.lastIndex = start;
  for (let match = structural.exec(text); match !== null; match = structural.exec(text)) {
    const c = text.charCodeAt(match.index);
    if (c === 34) {
      const end = stringEnd(text, match.index); // a string: jump past it
      if (end < 0) return -1;
      structural.lastIndex = end;
    } else if (c === 123 || c === 91) {
      depth++;
    } else {
      depth--;
      if (depth === 0) return match.index + 1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

/** The characters that open or close strings, objects and arrays. */
const structural = /["{}[\]]/g;

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
