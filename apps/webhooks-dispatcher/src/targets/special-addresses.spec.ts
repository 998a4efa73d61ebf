import { isForbiddenAddress, NOT_AN_ADDRESS, OUTSIDE_GLOBAL_UNICAST, specialRangeOf } from './special-addresses.js';

/**
 * Each range with addresses inside it (its first and last where it matters) and just outside
 * it. An address just outside one range may fall in the next, so the outside rows only check
 * that this range does not claim them; which addresses are public is checked below.
 */
const RANGES: ReadonlyArray<readonly [range: string, inside: string[], justOutside: string[]]> = [
  // IANA IPv4 Special-Purpose Address Registry, and multicast
  ['0.0.0.0/8 this network', ['0.0.0.0', '0.255.255.255'], ['1.0.0.0']],
  ['10.0.0.0/8 private use', ['10.0.0.0', '10.255.255.255'], ['9.255.255.255', '11.0.0.0']],
  ['100.64.0.0/10 shared address space', ['100.64.0.1', '100.127.255.255'], ['100.63.255.255', '100.128.0.0']],
  ['127.0.0.0/8 loopback', ['127.0.0.1', '127.255.255.255'], ['126.255.255.255', '128.0.0.0']],
  ['169.254.0.0/16 link local', ['169.254.0.0', '169.254.169.254'], ['169.253.255.255', '169.255.0.0']],
  ['172.16.0.0/12 private use', ['172.16.0.0', '172.31.255.255'], ['172.15.255.255', '172.32.0.0']],
  [
    '192.0.0.0/24 IETF protocol assignments',
    ['192.0.0.0', '192.0.0.8', '192.0.0.9', '192.0.0.10', '192.0.0.170', '192.0.0.255'],
    ['191.255.255.255', '192.0.1.0'],
  ],
  ['192.0.2.0/24 documentation', ['192.0.2.0', '192.0.2.255'], ['192.0.1.255', '192.0.3.0']],
  ['192.31.196.0/24 AS112', ['192.31.196.1'], ['192.31.195.255', '192.31.197.0']],
  ['192.52.193.0/24 AMT', ['192.52.193.1'], ['192.52.192.255', '192.52.194.0']],
  ['192.88.99.0/24 deprecated 6to4 relay anycast', ['192.88.99.1', '192.88.99.2'], ['192.88.98.255', '192.88.100.0']],
  ['192.168.0.0/16 private use', ['192.168.0.0', '192.168.255.255'], ['192.167.255.255', '192.169.0.0']],
  ['192.175.48.0/24 AS112 direct delegation', ['192.175.48.1'], ['192.175.47.255', '192.175.49.0']],
  ['198.18.0.0/15 benchmarking', ['198.18.0.1', '198.19.255.255'], ['198.17.255.255', '198.20.0.0']],
  ['198.51.100.0/24 documentation', ['198.51.100.7'], ['198.51.99.255', '198.51.101.0']],
  ['203.0.113.0/24 documentation', ['203.0.113.9'], ['203.0.112.255', '203.0.114.0']],
  ['224.0.0.0/4 multicast', ['224.0.0.0', '239.255.255.255'], ['223.255.255.255', '240.0.0.0']],
  ['240.0.0.0/4 reserved', ['240.0.0.1', '255.255.255.254'], ['239.255.255.255', '255.255.255.255']],
  ['255.255.255.255/32 limited broadcast', ['255.255.255.255'], ['255.255.255.254']],

  // IANA IPv6 Special-Purpose Address Registry, and multicast
  ['::/128 unspecified', ['::', '0:0:0:0:0:0:0:0'], ['::1']],
  ['::1/128 loopback', ['::1', '0:0:0:0:0:0:0:1'], ['::', '::2']],
  [
    '64:ff9b:1::/48 local-use IPv4/IPv6 translation',
    ['64:ff9b:1::a00:1', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
    ['64:ff9b:0:ffff:ffff:ffff:ffff:ffff', '64:ff9b:2::'],
  ],
  ['100::/64 discard-only', ['100::', '100::ffff:ffff:ffff:ffff'], ['ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '100:0:0:1::']],
  ['100:0:0:1::/64 dummy prefix', ['100:0:0:1::', '100::1:ffff:ffff:ffff:ffff'], ['100::ffff:ffff:ffff:ffff', '100:0:0:2::']],
  ['2001::/32 Teredo', ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2'], ['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:1::']],
  [
    '2001::/23 IETF protocol assignments',
    // PCP, TURN and DNS-SD anycast, benchmarking, AMT, AS112-v6, ORCHID, ORCHIDv2, drone identifiers, the last address
    [
      '2001:1::1',
      '2001:1::2',
      '2001:1::3',
      '2001:2::1',
      '2001:3::1',
      '2001:4:112::1',
      '2001:10::1',
      '2001:20::1',
      '2001:30::1',
      '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff',
    ],
    ['2001:200::'],
  ],
  [
    '2001:db8::/32 documentation',
    ['2001:db8::1', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::'],
  ],
  [
    '2002::/16 6to4',
    ['2002::', '2002:7f00:1::1', '2002:808:808::1', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2003::'],
  ],
  ['2620:4f:8000::/48 AS112 direct delegation', ['2620:4f:8000::1'], ['2620:4f:7fff:ffff:ffff:ffff:ffff:ffff', '2620:4f:8001::']],
  [
    '3fff::/20 documentation',
    ['3fff::1', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '3fff:1000::'],
  ],
  ['5f00::/16 SRv6 SIDs', ['5f00::1', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], ['5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '5f01::']],
  [
    'fc00::/7 unique local',
    ['fc00::1', 'fd00:ec2::254', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe00::'],
  ],
  [
    'fe80::/10 link-local',
    ['fe80::1', 'fe80::1%eth0', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fec0::'],
  ],
  ['ff00::/8 multicast', ['ff02::1', 'ff05::1:3', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],

  // IPv6 forms that carry an IPv4 address, judged by it
  [
    '::ffff:0:0/96 IPv4-mapped of 127.0.0.0/8 loopback',
    ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:7fff:ffff'],
    ['::ffff:126.255.255.255', '::ffff:128.0.0.0'],
  ],
  ['::ffff:0:0/96 IPv4-mapped of 0.0.0.0/8 this network', ['::ffff:0.0.0.0', '::ffff:0:0'], ['::ffff:1.0.0.0']],
  ['::ffff:0:0/96 IPv4-mapped of 10.0.0.0/8 private use', ['::ffff:10.0.0.5', '::ffff:a00:5'], ['::ffff:11.0.0.0']],
  ['::ffff:0:0/96 IPv4-mapped of 169.254.0.0/16 link local', ['::ffff:169.254.169.254', '::ffff:a9fe:a9fe'], ['::ffff:169.255.0.0']],
  ['::ffff:0:0/96 IPv4-mapped of 100.64.0.0/10 shared address space', ['::ffff:100.64.0.1'], ['::ffff:100.128.0.0']],
  ['::ffff:0:0/96 IPv4-mapped of 255.255.255.255/32 limited broadcast', ['::ffff:255.255.255.255'], ['::ffff:255.255.255.254']],
  [
    '64:ff9b::/96 IPv4/IPv6 translation of 127.0.0.0/8 loopback',
    ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1'],
    ['64:ff9b::126.255.255.255', '64:ff9b::128.0.0.0'],
  ],
  ['64:ff9b::/96 IPv4/IPv6 translation of 10.0.0.0/8 private use', ['64:ff9b::10.0.0.5'], ['64:ff9b::11.0.0.0']],
  ['64:ff9b::/96 IPv4/IPv6 translation of 169.254.0.0/16 link local', ['64:ff9b::a9fe:a9fe'], ['64:ff9b::a9ff:0']],
  ['64:ff9b::/96 IPv4/IPv6 translation of 192.0.0.0/24 IETF protocol assignments', ['64:ff9b::192.0.0.8'], ['64:ff9b::192.0.1.0']],

  // the rest of IPv6 outside global unicast: reserved, IPv4-compatible, IPv4-translated, site-local
  [
    OUTSIDE_GLOBAL_UNICAST,
    [
      '::2',
      '::7f00:1',
      '::127.0.0.1',
      '::808:808',
      '::ffff:0:7f00:1',
      '::ffff:0:808:808',
      'fec0::1',
      'feff::1',
      '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
      '4000::',
      'e000::1',
    ],
    ['2000::', '3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ],

  [NOT_AN_ADDRESS, ['not-an-ip', '', '0x7f.0.0.1', '127.1', '2130706433', '[::1]', '::1/128'], ['127.0.0.1']],
];

describe('specialRangeOf', () => {
  describe.each(RANGES)('%s', (range, inside, justOutside) => {
    it.each(inside)('holds %s', (address) => {
      expect(specialRangeOf(address)).toBe(range);
    });

    it.each(justOutside)('does not hold %s', (address) => {
      expect(specialRangeOf(address)).not.toBe(range);
    });
  });
});

describe('isForbiddenAddress', () => {
  it.each([
    ['0.0.0.0', '0.0.0.0/8'],
    ['0.255.1.2', '0.0.0.0/8'],
    ['10.0.0.5', '10/8'],
    ['10.255.255.255', '10/8'],
    ['100.64.0.1', '100.64/10'],
    ['100.127.255.254', '100.64/10'],
    ['127.0.0.1', '127/8'],
    ['127.255.0.9', '127/8'],
    ['169.254.169.254', 'link-local / metadata'],
    ['169.254.0.1', '169.254/16'],
    ['172.16.0.1', '172.16/12'],
    ['172.31.255.255', '172.16/12'],
    ['192.0.0.8', '192.0.0/24'],
    ['192.0.2.1', '192.0.2/24'],
    ['192.168.1.1', '192.168/16'],
    ['198.18.0.1', '198.18/15'],
    ['198.19.255.255', '198.18/15'],
    ['198.51.100.7', '198.51.100/24'],
    ['203.0.113.9', '203.0.113/24'],
    ['224.0.0.1', '224/4 multicast'],
    ['239.255.255.250', '224/4 multicast'],
    ['240.0.0.1', '240/4 reserved'],
    ['254.1.2.3', '240/4 reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback, long form'],
    ['fc00::1', 'fc00::/7'],
    ['fd12:3456::1', 'fc00::/7'],
    ['fe80::1', 'fe80::/10'],
    ['fe80::1%eth0', 'fe80::/10 with zone'],
    ['febf::1', 'fe80::/10'],
    ['ff02::1', 'ff00::/8'],
    ['2001:db8::1', '2001:db8::/32'],
    ['fd00:ec2::254', 'AWS IMDS v6'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata, hex form'],
    ['::ffff:10.0.0.5', 'IPv4-mapped private'],
    ['64:ff9b::10.0.0.5', 'NAT64 private'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 metadata, hex form'],
    ['64:ff9b::7f00:1', 'NAT64 loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['::127.0.0.1', 'IPv4-compatible loopback, dotted'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2002:808:808::1', '6to4 of a public address'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['2001::1', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['fec0::1', 'deprecated site-local'],
    ['100::1', 'discard-only'],
    ['5f00::1', 'SRv6 SIDs'],
    ['3fff::1', 'documentation 3fff::/20'],
    ['192.31.196.1', 'AS112'],
    ['192.52.193.1', 'AMT'],
    ['192.88.99.1', 'deprecated 6to4 relay anycast'],
    ['192.175.48.1', 'AS112 direct delegation'],
    ['not-an-ip', 'not an IP address'],
    ['0x7f.0.0.1', 'non-canonical IPv4'],
  ])('refuses %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '1.0.0.0',
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '191.255.255.255',
    '192.0.1.0',
    '192.0.3.0',
    '192.31.195.255',
    '192.31.197.0',
    '192.52.192.255',
    '192.52.194.0',
    '192.88.98.255',
    '192.88.100.0',
    '192.167.255.255',
    '192.169.0.0',
    '192.175.47.255',
    '192.175.49.0',
    '198.17.255.255',
    '198.20.0.0',
    '198.51.99.255',
    '198.51.101.0',
    '203.0.112.255',
    '203.0.114.0',
    '223.255.255.255',
    '2000::',
    '2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:200::',
    '2001:4860:4860::8888',
    '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:db9::',
    '2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '2003::',
    '2606:4700::1111',
    '2620:4f:7fff:ffff:ffff:ffff:ffff:ffff',
    '2620:4f:8001::',
    '3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '3fff:1000::',
    '3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '::ffff:1.0.0.0',
    '::ffff:126.255.255.255',
    '::ffff:128.0.0.0',
    '::ffff:223.255.255.255',
    '64:ff9b::8.8.8.8',
    '64:ff9b::808:808',
    '64:ff9b::126.255.255.255',
    '64:ff9b::128.0.0.0',
    '64:ff9b::192.0.1.0',
  ])('allows public %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});
