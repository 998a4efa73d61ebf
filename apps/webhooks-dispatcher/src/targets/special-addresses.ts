import { BlockList, isIP, SocketAddress } from 'node:net';

/** A block of addresses that never receives webhooks, named as in its registry. */
interface SpecialRange {
  network: string;
  prefix: number;
  name: string;
}

/**
 * Every entry of the IANA IPv4 Special-Purpose Address Registry, the globally reachable ones
 * too (anycast relays, AS112, AMT: none is a webhook receiver), and multicast. An entry inside
 * another is covered by it: 0.0.0.0/32 by 0.0.0.0/8; DS-Lite, the dummy address, PCP and TURN
 * anycast and NAT64 discovery by 192.0.0.0/24; the 6a44 relay by 192.88.99.0/24. The limited
 * broadcast address comes before 240.0.0.0/4, which holds it, to keep its own name.
 */
const IPV4_SPECIAL: readonly SpecialRange[] = [
  { network: '0.0.0.0', prefix: 8, name: 'this network' },
  { network: '10.0.0.0', prefix: 8, name: 'private use' },
  { network: '100.64.0.0', prefix: 10, name: 'shared address space' },
  { network: '127.0.0.0', prefix: 8, name: 'loopback' },
  { network: '169.254.0.0', prefix: 16, name: 'link local' },
  { network: '172.16.0.0', prefix: 12, name: 'private use' },
  { network: '192.0.0.0', prefix: 24, name: 'IETF protocol assignments' },
  { network: '192.0.2.0', prefix: 24, name: 'documentation' },
  { network: '192.31.196.0', prefix: 24, name: 'AS112' },
  { network: '192.52.193.0', prefix: 24, name: 'AMT' },
  { network: '192.88.99.0', prefix: 24, name: 'deprecated 6to4 relay anycast' },
  { network: '192.168.0.0', prefix: 16, name: 'private use' },
  { network: '192.175.48.0', prefix: 24, name: 'AS112 direct delegation' },
  { network: '198.18.0.0', prefix: 15, name: 'benchmarking' },
  { network: '198.51.100.0', prefix: 24, name: 'documentation' },
  { network: '203.0.113.0', prefix: 24, name: 'documentation' },
  { network: '224.0.0.0', prefix: 4, name: 'multicast' },
  { network: '255.255.255.255', prefix: 32, name: 'limited broadcast' },
  { network: '240.0.0.0', prefix: 4, name: 'reserved' },
];

/**
 * Every entry of the IANA IPv6 Special-Purpose Address Registry and multicast, except the two
 * whose last 32 bits are the IPv4 address a packet really goes to (IPV4_CARRIERS). Teredo comes
 * before 2001::/23, which holds it with PCP, TURN and DNS-SD anycast, benchmarking, AMT,
 * AS112-v6, ORCHID, ORCHIDv2 and drone identifiers.
 */
const IPV6_SPECIAL: readonly SpecialRange[] = [
  { network: '::', prefix: 128, name: 'unspecified' },
  { network: '::1', prefix: 128, name: 'loopback' },
  { network: '64:ff9b:1::', prefix: 48, name: 'local-use IPv4/IPv6 translation' },
  { network: '100::', prefix: 64, name: 'discard-only' },
  { network: '100:0:0:1::', prefix: 64, name: 'dummy prefix' },
  { network: '2001::', prefix: 32, name: 'Teredo' },
  { network: '2001::', prefix: 23, name: 'IETF protocol assignments' },
  { network: '2001:db8::', prefix: 32, name: 'documentation' },
  { network: '2002::', prefix: 16, name: '6to4' },
  { network: '2620:4f:8000::', prefix: 48, name: 'AS112 direct delegation' },
  { network: '3fff::', prefix: 20, name: 'documentation' },
  { network: '5f00::', prefix: 16, name: 'SRv6 SIDs' },
  { network: 'fc00::', prefix: 7, name: 'unique local' },
  { network: 'fe80::', prefix: 10, name: 'link-local' },
  { network: 'ff00::', prefix: 8, name: 'multicast' },
];

/** An IPv6 /96 whose last 32 bits are an IPv4 address; `head` is written so that a dotted IPv4 address completes it. */
interface Carrier extends SpecialRange {
  head: string;
}

/**
 * IPv4-mapped addresses (the host's own IPv4 stack connects to the IPv4 address) and the NAT64
 * well-known prefix (a translator does) are judged by the IPv4 address they carry, so that
 * NAT64 reaches public IPv4 receivers from an IPv6-only network.
 */
const IPV4_CARRIERS: readonly Carrier[] = [
  { network: '::ffff:0:0', prefix: 96, name: 'IPv4-mapped', head: '::ffff:' },
  { network: '64:ff9b::', prefix: 96, name: 'IPv4/IPv6 translation', head: '64:ff9b::' },
];

/**
 * Only 2000::/3 is global unicast (IANA IPv6 Address Space). The rest is reserved, local or
 * multicast: among it IPv4-compatible (::/96) and IPv4-translated (::ffff:0:0:0/96) addresses
 * whatever IPv4 address they carry, and the deprecated site-local fec0::/10.
 */
const GLOBAL_UNICAST: SpecialRange = { network: '2000::', prefix: 3, name: 'global unicast' };

export const OUTSIDE_GLOBAL_UNICAST = `outside ${GLOBAL_UNICAST.network}/${GLOBAL_UNICAST.prefix} ${GLOBAL_UNICAST.name}`;
export const NOT_AN_ADDRESS = 'not an IP address';

type Family = 'ipv4' | 'ipv6';

interface Rule {
  label: string;
  list: BlockList;
}

/** One range as a BlockList of its own, so that a match can be named. */
function ruleOf(network: string, prefix: number, family: Family, label: string): Rule {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { label, list };
}

const labelOf = (range: SpecialRange): string => `${range.network}/${range.prefix} ${range.name}`;

const rulesOf = (ranges: readonly SpecialRange[], family: Family): Rule[] =>
  ranges.map((range) => ruleOf(range.network, range.prefix, family, labelOf(range)));

/** The IPv4 special ranges as a carrier holds them in its last 32 bits. */
function carried(carrier: Carrier): Rule[] {
  return IPV4_SPECIAL.map((range) =>
    ruleOf(`${carrier.head}${range.network}`, carrier.prefix + range.prefix, 'ipv6', `${labelOf(carrier)} of ${labelOf(range)}`),
  );
}

const IPV4_RULES = rulesOf(IPV4_SPECIAL, 'ipv4');
const IPV6_RULES = [...rulesOf(IPV6_SPECIAL, 'ipv6'), ...IPV4_CARRIERS.flatMap(carried)];
const GLOBAL_OR_CARRIER = rulesOf([GLOBAL_UNICAST, ...IPV4_CARRIERS], 'ipv6');

/**
 * Why an address may not receive webhooks (the registry entry it falls in, for instance
 * `127.0.0.0/8 loopback`), or null for a public address. A zone index is ignored; anything but
 * an IPv4 address in dotted decimal or an IPv6 address is refused.
 */
export function specialRangeOf(ip: string): string | null {
  const address = ip.split('%')[0];
  const version = isIP(address);
  if (version === 0) return NOT_AN_ADDRESS;
  const family: Family = version === 4 ? 'ipv4' : 'ipv6';
  const parsed = new SocketAddress({ address, family });
  const matched = (family === 'ipv4' ? IPV4_RULES : IPV6_RULES).find((rule) => rule.list.check(parsed));
  if (matched) return matched.label;
  if (family === 'ipv6' && !GLOBAL_OR_CARRIER.some((rule) => rule.list.check(parsed))) return OUTSIDE_GLOBAL_UNICAST;
  return null;
}

/** Whether an address is in a special-purpose range, multicast or outside global unicast (non-IPs count as forbidden). */
export function isForbiddenAddress(ip: string): boolean {
  return specialRangeOf(ip) !== null;
}
