/**
 * Reads and shifts timestamp literals as they appear in the seed NDJSON, keeping their exact
 * textual shape. The replay rewrites times in place, byte for byte, because re-serializing the
 * JSON would change other values (e.g. Windows `Keywords` is a 64-bit integer that
 * `JSON.parse` rounds).
 */

/** `YYYY-MM-DD[T ]hh:mm:ss[.frac][Z|±hh[:]mm]`, the shape of every string timestamp in the seeds. */
const civilPattern = /^(\d{4})-(\d{2})-(\d{2})([T ])(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/;

/** Epoch numbers by digit count of the integer part (s, ms, µs, ns): units per millisecond. */
const epochUnitsPerMs: Readonly<Record<number, number>> = { 10: 0.001, 13: 1, 16: 1000, 19: 1_000_000 };

/**
 * Milliseconds since the epoch for a JSON literal (a quoted string or a bare number), or null
 * when it is not a timestamp we understand. Strings without a zone are read as UTC, as ingest does.
 */
export function parseTimestampLiteral(literal: string): number | null {
  if (literal.startsWith('"')) {
    const m = civilPattern.exec(literal.slice(1, -1));
    if (!m) return null;
    const local = civilMs(m);
    if (local === null) return null;
    return local - offsetMinutes(m[9]) * 60_000;
  }
  const n = /^(\d+)(?:\.(\d+))?$/.exec(literal);
  if (!n) return null;
  const perMs = epochUnitsPerMs[n[1]!.length];
  return perMs === undefined ? null : Number(literal) / perMs;
}

/**
 * The literal moved by `deltaMs`, in the same shape: same separator, fraction digits and zone
 * text for strings, same unit and decimals for numbers. Returns the literal unchanged when it
 * cannot be read.
 */
export function shiftTimestampLiteral(literal: string, deltaMs: number): string {
  if (literal.startsWith('"')) {
    const m = civilPattern.exec(literal.slice(1, -1));
    const local = m ? civilMs(m) : null;
    if (!m || local === null) return literal;
    const frac = m[8] ?? '';
    const shifted = new Date(local + deltaMs).toISOString(); // 2024-01-02T03:04:05.678Z
    // Digits past the millisecond are kept as they were: the shift is a whole number of ms.
    const ms = shifted.slice(20, 23);
    const newFrac = frac.length === 0 ? '' : `.${(ms + frac.slice(3)).slice(0, frac.length)}`;
    return `"${shifted.slice(0, 10)}${m[4]}${shifted.slice(11, 19)}${newFrac}${m[9] ?? ''}"`;
  }
  const n = /^(\d+)(?:\.(\d+))?$/.exec(literal);
  if (!n) return literal;
  const unitsPerMs = epochUnitsPerMs[n[1]!.length];
  if (unitsPerMs === undefined) return literal;
  // Fixed-point arithmetic on the digits, so 19-digit nanoseconds stay exact.
  const decimals = n[2]?.length ?? 0;
  const scaled = BigInt(n[1]! + (n[2] ?? ''));
  const perMs = 10 ** decimals * unitsPerMs; // steps of the last digit per millisecond
  const digits = (scaled + BigInt(Math.round(deltaMs * perMs))).toString();
  return decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

function civilMs(m: RegExpExecArray): number | null {
  const [year, month, day, hour, minute, second] = [1, 2, 3, 5, 6, 7].map((i) => Number(m[i]));
  if (month! < 1 || month! > 12 || day! < 1 || day! > 31 || hour! > 23 || minute! > 59 || second! > 60) return null;
  const fracMs = Number(((m[8] ?? '') + '000').slice(0, 3));
  return Date.UTC(year!, month! - 1, day!, hour, minute, second, fracMs);
}

function offsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z') return 0;
  const digits = zone.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return zone.startsWith('-') ? -minutes : minutes;
}
