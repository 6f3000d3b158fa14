/**
 * A search's time range as the user chose it: relative to now (kept relative in links, so a
 * shared "last 24 hours" means the reader's last 24 hours), absolute, or all time.
 */
export type TimeRange =
  | { readonly kind: 'relative'; readonly amount: number; readonly unit: TimeUnit }
  | { readonly kind: 'absolute'; readonly start: Date; readonly end: Date }
  | { readonly kind: 'all' };

export type TimeUnit = 'm' | 'h' | 'd';

export interface ResolvedRange {
  readonly start: Date;
  readonly end: Date;
}

const unitMs: Readonly<Record<TimeUnit, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
const unitNames: Readonly<Record<TimeUnit, string>> = { m: 'minute', h: 'hour', d: 'day' };

/** The picker's quick choices. */
export const quickRanges: readonly TimeRange[] = [
  { kind: 'relative', amount: 15, unit: 'm' },
  { kind: 'relative', amount: 1, unit: 'h' },
  { kind: 'relative', amount: 24, unit: 'h' },
  { kind: 'relative', amount: 7, unit: 'd' },
  { kind: 'relative', amount: 30, unit: 'd' },
  { kind: 'all' },
];

export const defaultRange: TimeRange = { kind: 'relative', amount: 24, unit: 'h' };

/** The most a relative range may reach back (ten years). */
const maxRelativeMs = 3650 * unitMs.d;

/** `15m`, `24h`, `7d`, `all`, or `<start>..<end>` in RFC 3339: the form ranges take in URLs. */
export function formatRange(range: TimeRange): string {
  switch (range.kind) {
    case 'relative':
      return `${range.amount}${range.unit}`;
    case 'absolute':
      return `${range.start.toISOString()}..${range.end.toISOString()}`;
    case 'all':
      return 'all';
  }
}

/** Reads what formatRange writes; null for anything else. */
export function parseRange(text: string): TimeRange | null {
  const trimmed = text.trim();
  if (trimmed === 'all') return { kind: 'all' };
  const relative = /^(\d{1,6})([mhd])$/.exec(trimmed);
  if (relative) {
    const amount = Number(relative[1]);
    const unit = relative[2] as TimeUnit;
    if (amount < 1 || amount * unitMs[unit] > maxRelativeMs) return null;
    return { kind: 'relative', amount, unit };
  }
  const [from, to, ...rest] = trimmed.split('..');
  if (from === undefined || to === undefined || rest.length > 0) return null;
  const start = parseInstant(from);
  const end = parseInstant(to);
  if (!start || !end || end.getTime() <= start.getTime()) return null;
  return { kind: 'absolute', start, end };
}

/** An RFC 3339 instant with its offset (a bare date-time would depend on the reader's zone). */
function parseInstant(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The instants a range stands for at `now`. "All time" spans the events the searched indexes hold
 * (`span`, from their stats), or from 1970 to now when they are not known.
 */
export function resolveRange(range: TimeRange, now: Date, span?: ResolvedRange | null): ResolvedRange {
  switch (range.kind) {
    case 'relative':
      return { start: new Date(now.getTime() - range.amount * unitMs[range.unit]), end: now };
    case 'absolute':
      return { start: range.start, end: range.end };
    case 'all':
      return span ?? { start: new Date(0), end: now };
  }
}

/** "Last 24 hours", "All time", or the two instants in the chosen zone. */
export function describeRange(range: TimeRange, zone: TimeZoneChoice): string {
  switch (range.kind) {
    case 'relative':
      return `Last ${range.amount} ${unitNames[range.unit]}${range.amount === 1 ? '' : 's'}`;
    case 'absolute':
      return `${formatInstant(range.start, zone)} → ${formatInstant(range.end, zone)}`;
    case 'all':
      return 'All time';
  }
}

export type TimeZoneChoice = 'utc' | 'local';

/** `2024-05-01 13:45:07` in UTC or the browser's zone; `.123` added when there are milliseconds. */
export function formatInstant(date: Date, zone: TimeZoneChoice): string {
  const shifted = zone === 'utc' ? date : new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  const iso = shifted.toISOString();
  const ms = iso.slice(20, 23);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${ms === '000' ? '' : `.${ms}`}`;
}

/** Reads `YYYY-MM-DD HH:MM[:SS]` (or with a `T`) typed in the chosen zone. */
export function parseTypedInstant(text: string, zone: TimeZoneChoice): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', ms = '0'] = m;
  const parts = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(ms.padEnd(3, '0'))] as const;
  const date = zone === 'utc' ? new Date(Date.UTC(...parts)) : new Date(...parts);
  if (Number.isNaN(date.getTime())) return null;
  // Reject rolled-over fields (2024-02-31): reading the date back must give the typed fields.
  const back = zone === 'utc' ? [date.getUTCMonth(), date.getUTCDate()] : [date.getMonth(), date.getDate()];
  return back[0] === parts[1] && back[1] === parts[2] ? date : null;
}
