import { ValidationError } from '../core/index.js';
import { parseIpAddress, type IpAddress } from './ip-address.js';

type Range = readonly [prefix: string, bits: number, what: string];

// Addresses an alert must never be sent to unless the operator allows private destinations:
// anything that reaches the service's own host, its network, or a cloud metadata endpoint.
const ipv4Ranges: readonly Range[] = [
  ['0.0.0.0', 8, 'a "this network" address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'], // also Alibaba's metadata 100.100.100.200
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'], // the metadata endpoint 169.254.169.254 of most clouds
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'an IETF protocol address'], // Oracle's metadata 192.0.0.192
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'], // includes 255.255.255.255
];

const ipv6Ranges: readonly Range[] = [
  ['::', 128, 'the unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['64:ff9b:1::', 48, 'a local NAT64 address'],
  ['100::', 64, 'a discard address'],
  ['fc00::', 7, 'a unique-local address'], // AWS's IPv6 metadata endpoint fd00:ec2::254
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a site-local address'],
  ['ff00::', 8, 'a multicast address'],
];

// Names that resolve to the local host or a metadata service, or only inside a private network.
const blockedNames = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback', 'metadata', 'metadata.google.internal', 'instance-data', 'instance-data.ec2.internal']);
const blockedSuffixes = ['.localhost', '.local', '.localdomain', '.internal', '.home.arpa'];

/**
 * Where sinks may send alerts (detections.md E13). Configuration time can only judge what the URL
 * says: the scheme, embedded credentials, literal addresses and names that are local by
 * definition. A public name may still resolve to a private address (or change to one later), so
 * the delivery worker applies checkResolvedAddress to every address it connects to. With
 * `allowPrivate` (the operator's `allow_private_destinations`) only the URL's shape is checked.
 */
export class DestinationPolicy {
  constructor(readonly allowPrivate: boolean) {}

  /** Checks a destination URL; ValidationError on `field` when it may not be used. */
  checkUrl(text: string, field: string): URL {
    if (text.length > 2048) throw new ValidationError(`${field} must be at most 2048 characters`, { field });
    let url: URL;
    try {
      url = new URL(text);
    } catch (cause) {
      throw new ValidationError(`${field} is not a valid URL`, { field, cause });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError(`${field} must be an http or https URL`, { field });
    if (url.username !== '' || url.password !== '') {
      throw new ValidationError(`${field} must not carry credentials (user:password@); send them in headers instead`, { field });
    }
    const reason = this.allowPrivate ? null : blockedHostReason(url.hostname);
    if (reason !== null) {
      throw new ValidationError(`${field} points at ${reason}, which sinks may not reach unless the operator sets allow_private_destinations`, { field });
    }
    return url;
  }

  /** For the delivery worker after DNS resolution: why the address may not be contacted, or null when it may. */
  checkResolvedAddress(address: string): string | null {
    if (this.allowPrivate) return null;
    const ip = parseIpAddress(address);
    return ip === null ? 'not an IP address' : blockedAddressReason(ip);
  }
}

/** Why a URL host (name or literal address, as the URL parser gives it) is refused, or null. */
function blockedHostReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const ip = parseIpAddress(host);
  if (ip !== null) return blockedAddressReason(ip);
  if (blockedNames.has(host) || blockedSuffixes.some((suffix) => host.endsWith(suffix))) return `the local or internal name ${host}`;
  // A name without a dot resolves only through the host's search domains: a local network name.
  if (!host.includes('.')) return `the single-label name ${host}`;
  return null;
}

/** Why an address is refused, or null for a public address. Embedded IPv4 addresses are judged as IPv4. */
function blockedAddressReason(ip: IpAddress): string | null {
  if (ip.family === 4) return matchRange(ip.value, 32, ipv4Ranges);
  const embedded = embeddedIpv4(ip.value);
  if (embedded !== null) {
    const reason = matchRange(embedded, 32, ipv4Ranges);
    return reason === null ? null : `${reason} (embedded in an IPv6 address)`;
  }
  return matchRange(ip.value, 128, ipv6Ranges);
}

const mask = (bits: number): bigint => (1n << BigInt(bits)) - 1n;

/** The IPv4 address inside an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 IPv6 address. */
function embeddedIpv4(v6: bigint): bigint | null {
  const low32 = v6 & mask(32);
  if (v6 >> 32n === 0xffffn) return low32; // ::ffff:a.b.c.d
  if (v6 >> 32n === 0n && v6 > 1n) return low32; // ::a.b.c.d (deprecated IPv4-compatible)
  if (v6 >> 32n === 0x0064ff9b0000000000000000n) return low32; // 64:ff9b::a.b.c.d
  if (v6 >> 112n === 0x2002n) return (v6 >> 80n) & mask(32); // 2002:aabb:ccdd::
  return null;
}

const parsedRanges = new Map<Range, bigint>();

function matchRange(value: bigint, width: number, ranges: readonly Range[]): string | null {
  for (const range of ranges) {
    let prefix = parsedRanges.get(range);
    if (prefix === undefined) {
      prefix = parseIpAddress(range[0])?.value ?? 0n;
      parsedRanges.set(range, prefix);
    }
    const shift = BigInt(width - range[1]);
    if (value >> shift === prefix >> shift) return range[2];
  }
  return null;
}
