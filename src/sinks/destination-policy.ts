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

// Ranges that embed an IPv4 address are judged by what they embed (ipv4Embeddings), not here.
const ipv6Ranges: readonly Range[] = [
  ['::', 128, 'the unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['100::', 64, 'a discard address'],
  ['fc00::', 7, 'a unique-local address'], // AWS's IPv6 metadata endpoint fd00:ec2::254
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a site-local address'],
  ['ff00::', 8, 'a multicast address'],
];

// Names that resolve to the local host or a metadata service, or only inside a private network.
const blockedNames = new Set([
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
  'metadata',
  'metadata.google.internal',
  'instance-data',
  'instance-data.ec2.internal',
]);
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
  const special = matchRange(ip.value, 128, ipv6Ranges);
  if (special !== null) return special;
  for (const embedding of ipv4Embeddings) {
    if (ip.value >> BigInt(128 - embedding.bits) !== prefixValue(embedding.prefix) >> BigInt(128 - embedding.bits)) continue;
    for (const v4 of embedding.ipv4Of(ip.value)) {
      const reason = matchRange(v4, 32, ipv4Ranges);
      if (reason !== null) return `${reason} (embedded in ${embedding.what} IPv6 address)`;
    }
    return embedding.refused ?? null;
  }
  return null;
}

const mask = (bits: number): bigint => (1n << BigInt(bits)) - 1n;
const low32 = (v6: bigint): bigint[] => [v6 & mask(32)];

/** An IPv6 range whose addresses carry IPv4 addresses, and where. */
interface Ipv4Embedding {
  readonly prefix: string;
  readonly bits: number;
  /** `an IPv4-mapped`: what the range is, for the refusal. */
  readonly what: string;
  readonly ipv4Of: (v6: bigint) => bigint[];
  /** Why the whole range is refused whatever it embeds; absent: judged by the IPv4 address alone. */
  readonly refused?: string;
}

/**
 * The one rule for IPv6 addresses that reach an IPv4 host: each range that embeds an IPv4
 * address (by translation, tunnelling or synthesis), with where the address sits. A host that
 * connects to such an address may reach the IPv4 address inside, so that address is judged.
 */
const ipv4Embeddings: readonly Ipv4Embedding[] = [
  { prefix: '::ffff:0:0', bits: 96, what: 'an IPv4-mapped', ipv4Of: low32 }, // RFC 4291
  { prefix: '::ffff:0:0:0', bits: 96, what: 'an IPv4-translated', ipv4Of: low32 }, // RFC 2765 (SIIT)
  { prefix: '::', bits: 96, what: 'an IPv4-compatible', ipv4Of: low32 }, // RFC 4291, deprecated; :: and ::1 are judged before
  { prefix: '64:ff9b::', bits: 96, what: 'a NAT64', ipv4Of: low32 }, // RFC 6052 well-known prefix
  {
    // RFC 8215 local-use prefix; at /48 (RFC 6052) the IPv4 address sits in bits 48-63 and 72-87.
    // Operators choose their own layout within it, so the range is refused whatever it embeds.
    prefix: '64:ff9b:1::',
    bits: 48,
    what: 'a local-use NAT64',
    ipv4Of: (v6) => [(((v6 >> 64n) & mask(16)) << 16n) | ((v6 >> 40n) & mask(16))],
    refused: 'a local-use NAT64 address',
  },
  { prefix: '2002::', bits: 16, what: 'a 6to4', ipv4Of: (v6) => [(v6 >> 80n) & mask(32)] }, // RFC 3056
  // RFC 4380 Teredo: the server's address in bits 32-63, the client's with every bit inverted in the last 32.
  { prefix: '2001::', bits: 32, what: 'a Teredo', ipv4Of: (v6) => [(v6 >> 64n) & mask(32), ~v6 & mask(32)] },
];

const parsedPrefixes = new Map<string, bigint>();

function prefixValue(prefix: string): bigint {
  let value = parsedPrefixes.get(prefix);
  if (value === undefined) {
    value = parseIpAddress(prefix)?.value ?? 0n;
    parsedPrefixes.set(prefix, value);
  }
  return value;
}

function matchRange(value: bigint, width: number, ranges: readonly Range[]): string | null {
  for (const [prefix, bits, what] of ranges) {
    const shift = BigInt(width - bits);
    if (value >> shift === prefixValue(prefix) >> shift) return what;
  }
  return null;
}
