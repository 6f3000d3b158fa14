import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as a number: 32 bits for IPv4, 128 for IPv6. */
export type IpAddress = { readonly family: 4; readonly value: bigint } | { readonly family: 6; readonly value: bigint };

/**
 * Parses an IP address literal in its canonical text forms: dotted-quad IPv4 (`10.0.0.1`) and
 * IPv6 with `::` compression, an embedded dotted IPv4 tail and an optional zone (`fe80::1%eth0`).
 * URL hosts reach here already canonical: the WHATWG URL parser rewrites `0x7f.1`, `2130706433`
 * and `0177.0.0.1` to `127.0.0.1`. Null when the text is not an address.
 */
export function parseIpAddress(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIPv4(bare)) return { family: 4, value: parseIpv4(bare) };
  const withoutZone = bare.split('%', 1)[0] ?? '';
  if (!isIPv6(withoutZone)) return null;
  return { family: 6, value: parseIpv6(withoutZone) };
}

function parseIpv4(text: string): bigint {
  return text.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

function parseIpv6(text: string): bigint {
  let head = text;
  const groups: number[] = [];
  // An embedded IPv4 tail (`::ffff:1.2.3.4`) stands for the last two groups.
  const lastColon = head.lastIndexOf(':');
  const tail = head.slice(lastColon + 1);
  let tailGroups: number[] = [];
  if (tail.includes('.')) {
    const v4 = Number(parseIpv4(tail));
    tailGroups = [v4 >>> 16, v4 & 0xffff];
    head = head.slice(0, lastColon + 1);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left = '', right] = head.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const leftGroups = parse(left);
  const rightGroups = [...(right === undefined ? [] : parse(right)), ...tailGroups];
  const missing = 8 - leftGroups.length - rightGroups.length;
  groups.push(...leftGroups, ...Array<number>(right === undefined ? 0 : missing).fill(0), ...rightGroups);
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(group), 0n);
}
