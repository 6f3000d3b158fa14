import { ValidationError, parseRfc3339Ns } from '../core/index.js';

export interface TimeRangeOptions {
  readonly from?: string;
  readonly to?: string;
  readonly last?: string;
}

/** The CLI's default window when neither --from nor --last is given. */
export const defaultLast = '24h';

const units: Readonly<Record<string, bigint>> = {
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
  d: 86_400_000_000_000n,
  w: 604_800_000_000_000n,
};

/**
 * Reads `--from`/`--to` (RFC 3339, or `now`) and `--last` (`15m`, `24h`, `7d`) into a
 * nanosecond range `[start, end)`. `--last` counts back from `--to` (default now).
 */
export function parseTimeRange(options: TimeRangeOptions, nowMs: number): { startNs: bigint; endNs: bigint } {
  if (options.from !== undefined && options.last !== undefined) throw new ValidationError('give --from or --last, not both', { field: 'last' });
  const endNs = options.to === undefined ? BigInt(nowMs) * 1_000_000n : parseInstant(options.to, nowMs, 'to');
  const startNs = options.from !== undefined ? parseInstant(options.from, nowMs, 'from') : endNs - parseDuration(options.last ?? defaultLast);
  if (startNs >= endNs) throw new ValidationError('--from must be before --to', { field: 'from' });
  return { startNs, endNs };
}

function parseInstant(text: string, nowMs: number, field: string): bigint {
  if (text === 'now') return BigInt(nowMs) * 1_000_000n;
  const ns = parseRfc3339Ns(text);
  if (ns === null) throw new ValidationError(`--${field} must be an RFC 3339 time such as 2026-11-21T10:00:00Z, or now`, { field });
  return ns;
}

function parseDuration(text: string): bigint {
  const match = /^(\d+)([smhdw])$/.exec(text);
  if (!match) throw new ValidationError('--last takes a duration such as 15m, 24h or 7d', { field: 'last' });
  return BigInt(match[1] as string) * (units[match[2] as string] as bigint);
}
