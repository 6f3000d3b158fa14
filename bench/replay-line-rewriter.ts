import type { ReplaySource } from './replay-sources.js';
import { parseTimestampLiteral, shiftTimestampLiteral } from './replay-timestamp.js';

/** A `"key": value` occurrence in a line: where the value literal starts and ends. */
interface FieldHit {
  readonly key: string;
  readonly start: number;
  readonly end: number;
}

/** One seed line, scanned once: its event time and where the fields we rewrite sit. */
export interface ScannedLine {
  readonly text: string;
  /** Event time in ms from the first readable time field, or null (ingest will stamp it). */
  readonly timeMs: number | null;
  readonly hits: readonly FieldHit[];
}

/** Identifier values whose hash falls in this share stay the same in every epoch, like admins and servers that recur. */
const keptShare = 3; // 1 in 3

/**
 * Rewrites seed lines for one source by string surgery on the literals of a few top-level
 * fields; every other byte of the line stays as it was in the seed. A key that also occurs in a
 * nested object is rewritten there too (only Panther fixtures nest), which is harmless.
 */
export class ReplayLineRewriter {
  private readonly pattern: RegExp;
  private readonly timeFields: ReadonlySet<string>;
  private readonly hostFields: ReadonlySet<string>;
  private readonly ipFields: ReadonlySet<string>;

  constructor(private readonly source: ReplaySource) {
    const keys = [...new Set([...source.timeFields, ...source.shiftFields, ...source.hostFields, ...source.ipFields])];
    const alternation = keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    // The key must be a whole JSON string: inside an escaped string it would read \"key\":, so it cannot match.
    this.pattern = new RegExp(`"(${alternation})"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`, 'g');
    this.timeFields = new Set([...source.timeFields, ...source.shiftFields]);
    this.hostFields = new Set(source.hostFields);
    this.ipFields = new Set(source.ipFields);
  }

  scan(text: string): ScannedLine {
    const hits: FieldHit[] = [];
    for (const m of text.matchAll(this.pattern)) {
      const end = m.index + m[0].length;
      hits.push({ key: m[1]!, start: end - m[2]!.length, end });
    }
    return { text, timeMs: this.eventTime(text, hits), hits };
  }

  /** The line with every time field moved by `deltaMs` and identifiers relabelled for `epoch`. */
  render(line: ScannedLine, deltaMs: number, epoch: number): string {
    if (line.hits.length === 0) return line.text;
    let out = '';
    let at = 0;
    for (const hit of line.hits) {
      const literal = line.text.slice(hit.start, hit.end);
      out += line.text.slice(at, hit.start) + this.rewriteValue(hit.key, literal, deltaMs, epoch);
      at = hit.end;
    }
    return out + line.text.slice(at);
  }

  private eventTime(text: string, hits: readonly FieldHit[]): number | null {
    for (const field of this.source.timeFields) {
      for (const hit of hits) {
        if (hit.key !== field) continue;
        const ms = parseTimestampLiteral(text.slice(hit.start, hit.end));
        if (ms !== null) return ms;
      }
    }
    return null;
  }

  private rewriteValue(key: string, literal: string, deltaMs: number, epoch: number): string {
    if (this.timeFields.has(key)) return deltaMs === 0 ? literal : shiftTimestampLiteral(literal, deltaMs);
    if (epoch === 0 || !literal.startsWith('"') || fnv1a(literal) % keptShare === 0) return literal;
    if (this.hostFields.has(key)) return relabelHost(literal, epoch);
    if (this.ipFields.has(key)) return relabelIpv4(literal, epoch);
    return literal;
  }
}

/** `"WORKSTATION5.theshire.local"` → `"WORKSTATION5-e3.theshire.local"` in epoch 3. */
function relabelHost(literal: string, epoch: number): string {
  const value = literal.slice(1, -1);
  if (value === '' || value === '-') return literal;
  const dot = value.indexOf('.');
  const relabelled = dot <= 0 ? `${value}-e${epoch}` : `${value.slice(0, dot)}-e${epoch}${value.slice(dot)}`;
  return `"${relabelled}"`;
}

/** Same /24, another host number in 1..254; loopback, 0.0.0.0 and broadcast stay. */
function relabelIpv4(literal: string, epoch: number): string {
  const m = /^"(\d{1,3}\.\d{1,3}\.\d{1,3}\.)(\d{1,3})"$/.exec(literal);
  if (!m || m[1]!.startsWith('127.') || m[1] === '0.0.0.') return literal;
  const octet = Number(m[2]);
  if (octet === 0 || octet >= 255) return literal;
  return `"${m[1]}${((octet - 1 + 37 * epoch) % 254) + 1}"`;
}

/** 32-bit FNV-1a: a stable, cheap choice of which values recur across epochs. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
