import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/index.js';
import { DestinationPolicy } from './destination-policy.js';
import { parseIpAddress } from './ip-address.js';

const strict = new DestinationPolicy(false);
const lenient = new DestinationPolicy(true);

describe('DestinationPolicy.checkUrl', () => {
  it.each(['https://hooks.example.com/alerts', 'http://alerts.example.org:8080/in?x=1', 'https://203.0.113.7/hook', 'https://[2606:4700::1111]/hook', 'https://[::ffff:8.8.8.8]/'])(
    'accepts the public destination %s',
    (url) => {
      expect(strict.checkUrl(url, 'url').href).toBe(new URL(url).href);
    },
  );

  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://localhost:8080/', 'local or internal name'],
    ['http://LOCALHOST./', 'local or internal name'],
    ['http://api.localhost/', 'local or internal name'],
    ['http://2130706433/', 'loopback'], // decimal
    ['http://0x7f000001/', 'loopback'], // hex
    ['http://0177.0.0.1/', 'loopback'], // octal
    ['http://127.1/', 'loopback'], // short form
    ['http://0.0.0.0/', 'this network'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.31.255.255/', 'private'],
    ['http://192.168.0.10/', 'private'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://100.100.100.200/', 'carrier-grade NAT'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://192.0.0.192/', 'IETF protocol'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://255.255.255.255/', 'reserved'],
    ['http://[::1]/', 'loopback'],
    ['http://[::]/', 'unspecified'],
    ['http://[::ffff:127.0.0.1]/', 'loopback address (embedded'],
    ['http://[::ffff:0:127.0.0.1]/', 'loopback address (embedded'],
    ['http://[::ffff:a9fe:a9fe]/', 'link-local address (embedded'],
    ['http://[64:ff9b::10.0.0.1]/', 'private address (embedded'],
    ['http://[2002:c0a8:0001::1]/', 'private address (embedded'],
    ['http://[fd00:ec2::254]/', 'unique-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'local or internal name'],
    ['http://instance-data/', 'local or internal name'],
    ['http://printer.local/', 'local or internal name'],
    ['http://webhook-receiver:9000/', 'single-label name'],
  ])('refuses %s (%s)', (url, reason) => {
    expect(() => strict.checkUrl(url, 'event_sink_args.Webhook.url')).toThrow(ValidationError);
    expect(() => strict.checkUrl(url, 'event_sink_args.Webhook.url')).toThrow(reason);
    expect(() => strict.checkUrl(url, 'event_sink_args.Webhook.url')).toThrow(/^event_sink_args\.Webhook\.url points at .* allow_private_destinations$/);
    expect(lenient.checkUrl(url, 'url')).toBeInstanceOf(URL);
  });

  it.each([
    ['ftp://example.com/x', 'http or https'],
    ['file:///etc/passwd', 'http or https'],
    ['javascript:alert(1)', 'http or https'],
    ['not a url', 'not a valid URL'],
    ['https://user:pass@example.com/', 'credentials'],
    [`https://example.com/${'a'.repeat(2100)}`, 'at most 2048'],
  ])('refuses %s whatever the operator allows', (url, message) => {
    for (const policy of [strict, lenient]) expect(() => policy.checkUrl(url, 'url')).toThrow(message);
  });
});

/**
 * Every IPv6 range that carries an IPv4 address: the address inside is judged as IPv4 (one rule),
 * at sink create and update (a URL) and at delivery (a resolved address) alike. Each row: the
 * range, an address of it carrying a refused IPv4 address, and one carrying a public one.
 */
describe('IPv6 addresses that embed IPv4', () => {
  it.each([
    ['IPv4-mapped ::ffff:0:0/96', '::ffff:127.0.0.1', 'loopback', '::ffff:8.8.8.8'],
    ['IPv4-mapped, in hex', '::ffff:a9fe:a9fe', 'link-local', '::ffff:808:808'],
    ['IPv4-translated ::ffff:0:0:0/96', '::ffff:0:127.0.0.1', 'loopback', '::ffff:0:8.8.8.8'],
    ['IPv4-translated, in hex', '::ffff:0:a00:1', 'private', '::ffff:0:808:808'],
    ['IPv4-compatible ::/96', '::127.0.0.1', 'loopback', '::8.8.8.8'],
    ['NAT64 64:ff9b::/96', '64:ff9b::169.254.169.254', 'link-local', '64:ff9b::8.8.8.8'],
    ['6to4 2002::/16', '2002:a9fe:a9fe::1', 'link-local', '2002:808:808::1'],
    ['6to4, another subnet', '2002:7f00:1:1::', 'loopback', '2002:808:808:1::'],
    ['Teredo 2001::/32, client (bits inverted)', '2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['Teredo 2001::/32, server', '2001:0:a00:1:8000:63bf:3fff:fdd2', 'private', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ])('%s: refuses %s (%s) and accepts %s', (_range, blocked, reason, open) => {
    expect(() => strict.checkUrl(`http://[${blocked}]/`, 'url')).toThrow(new RegExp(`points at an? ${reason} address \\(embedded in an? .*IPv6 address\\)`));
    expect(strict.checkResolvedAddress(blocked)).toMatch(new RegExp(`^an? ${reason} address \\(embedded`));
    expect(strict.checkUrl(`http://[${open}]/`, 'url')).toBeInstanceOf(URL);
    expect(strict.checkResolvedAddress(open)).toBeNull();
    expect(lenient.checkUrl(`http://[${blocked}]/`, 'url')).toBeInstanceOf(URL);
  });

  it('refuses the local-use NAT64 range 64:ff9b:1::/48 whatever it embeds, naming the IPv4 address when it is refused too', () => {
    // RFC 6052 at /48: the IPv4 address sits in bits 48-63 and 72-87
    expect(strict.checkResolvedAddress('64:ff9b:1:7f00:0:100::')).toMatch(/^a loopback address \(embedded in a local-use NAT64 IPv6 address\)/);
    expect(strict.checkResolvedAddress('64:ff9b:1:808:8:800::')).toBe('a local-use NAT64 address');
    expect(() => strict.checkUrl('http://[64:ff9b:1:808:8:800::]/', 'url')).toThrow('points at a local-use NAT64 address');
  });

  it('still tells the unspecified and loopback addresses apart from IPv4-compatible ones', () => {
    expect(strict.checkResolvedAddress('::')).toBe('the unspecified address');
    expect(strict.checkResolvedAddress('::1')).toBe('a loopback address');
  });
});

describe('DestinationPolicy.checkResolvedAddress', () => {
  it('judges resolved addresses the same way, for the delivery worker', () => {
    expect(strict.checkResolvedAddress('93.184.216.34')).toBeNull();
    expect(strict.checkResolvedAddress('2606:2800:220:1::1')).toBeNull();
    expect(strict.checkResolvedAddress('10.0.0.5')).toMatch(/private/);
    expect(strict.checkResolvedAddress('::ffff:10.0.0.5')).toMatch(/private/);
    expect(strict.checkResolvedAddress('fe80::1%eth0')).toMatch(/link-local/);
    expect(strict.checkResolvedAddress('example.com')).toBe('not an IP address');
    expect(lenient.checkResolvedAddress('127.0.0.1')).toBeNull();
  });
});

describe('parseIpAddress', () => {
  it.each([
    ['1.2.3.4', 4, 0x01020304n],
    ['::1', 6, 1n],
    ['::ffff:1.2.3.4', 6, 0xffff01020304n],
    ['1:2:3:4:5:6:7:8', 6, 0x00010002000300040005000600070008n],
    ['1::8', 6, 0x00010000000000000000000000000008n],
    ['1:2:3:4:5:6:1.2.3.4', 6, 0x00010002000300040005000601020304n],
    ['[fe80::1]', 6, 0xfe800000000000000000000000000001n],
  ])('reads %s', (text, family, value) => {
    expect(parseIpAddress(text)).toEqual({ family, value });
  });

  it('answers null for names and malformed text', () => {
    for (const text of ['example.com', '1.2.3', '::g', '', '1.2.3.256']) expect(parseIpAddress(text)).toBeNull();
  });
});
