import { promises as dns } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** How strictly webhook target URLs are checked. */
export interface TargetPolicy {
  /** Allow loopback/private/link-local targets and plain http (local development only). */
  allowPrivate: boolean;
  /** Require https (live-mode endpoints); ignored when allowPrivate is on. */
  requireHttps: boolean;
}

/** A webhook target was refused; `reason` is a short sentence usable as a validation message. */
export class TargetRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'TargetRefused';
  }
}

/** Resolves a hostname to all of its IP addresses. */
export type Resolver = (hostname: string) => Promise<string[]>;

const IPV4_FORBIDDEN: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const IPV6_FORBIDDEN: ReadonlyArray<readonly [string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['fd00:ec2::254', 128],
];

const ipv4Blocked = buildBlockList(IPV4_FORBIDDEN, 'ipv4');
const ipv6Blocked = buildBlockList(IPV6_FORBIDDEN, 'ipv6');

const PRIVATE_NAME_SUFFIXES = ['.localhost', '.local', '.internal'];

/** Builds a BlockList from [network, prefix] pairs of one address family. */
function buildBlockList(subnets: ReadonlyArray<readonly [string, number]>, type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, type);
  return list;
}

/** Expands a valid IPv6 address (optionally with a trailing dotted quad) into its eight 16-bit groups. */
function ipv6Groups(ip: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  let text = ip;
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${ip.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined): number[] => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const headGroups = parse(head);
  if (tail === undefined) return headGroups;
  const tailGroups = parse(tail);
  return [...headGroups, ...new Array<number>(8 - headGroups.length - tailGroups.length).fill(0), ...tailGroups];
}

/** The IPv4 address embedded in an IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) address, if any. */
function embeddedIpv4(ip: string): string | null {
  const groups = ipv6Groups(ip);
  const zeroFrom = (start: number, end: number): boolean => groups.slice(start, end).every((group) => group === 0);
  const mapped = zeroFrom(0, 5) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && zeroFrom(2, 6);
  if (!mapped && !nat64) return null;
  const [high, low] = [groups[6], groups[7]];
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** Whether an IP address is loopback, private, link-local, reserved or cloud metadata (non-IPs count as forbidden). */
export function isForbiddenAddress(ip: string): boolean {
  const address = ip.split('%')[0];
  switch (isIP(address)) {
    case 4:
      return address === '255.255.255.255' || ipv4Blocked.check(address, 'ipv4');
    case 6: {
      const ipv4 = embeddedIpv4(address);
      return ipv4 !== null ? isForbiddenAddress(ipv4) : ipv6Blocked.check(address, 'ipv6');
    }
    default:
      return true;
  }
}

/** The URL's hostname without IPv6 brackets or a trailing dot, lower-cased. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '').toLowerCase();
}

/** Whether a hostname is a name reserved for local or internal networks. */
function isPrivateName(hostname: string): boolean {
  return hostname === 'localhost' || PRIVATE_NAME_SUFFIXES.some((suffix) => hostname.endsWith(suffix));
}

/** Parses a URL without throwing. */
function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** Validates a webhook URL's form (scheme, credentials, fragment, literal host) without DNS; throws TargetRefused. */
export function checkUrlForm(raw: string, policy: TargetPolicy): URL {
  const url = parseUrl(raw);
  if (!url) throw new TargetRefused('url is not a valid URL');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetRefused('url must use http or https');
  if (policy.requireHttps && !policy.allowPrivate && url.protocol !== 'https:') throw new TargetRefused('url must use https');
  if (url.username !== '' || url.password !== '') throw new TargetRefused('url must not contain credentials');
  if (url.href.includes('#')) throw new TargetRefused('url must not contain a fragment');
  const host = bareHostname(url);
  if (host === '') throw new TargetRefused('url must have a host');
  if (policy.allowPrivate) return url;
  if (isIP(host) !== 0) {
    if (isForbiddenAddress(host)) throw new TargetRefused(`url points to a private address (${host})`);
  } else if (isPrivateName(host)) {
    throw new TargetRefused(`url host is not public (${host})`);
  }
  return url;
}

/** Resolves a hostname to all of its A/AAAA addresses with the system resolver. */
export async function defaultResolve(hostname: string): Promise<string[]> {
  const addresses = await dns.lookup(hostname, { all: true, verbatim: true });
  return addresses.map((entry) => entry.address);
}

/**
 * Throws TargetRefused unless every address is allowed; an empty list means the host does not
 * resolve. The message never names the address: it would tell a caller what an internal name
 * resolves to.
 */
export function assertPublicAddresses(addresses: readonly string[]): void {
  if (addresses.length === 0) throw new TargetRefused('url host does not resolve');
  if (addresses.some(isForbiddenAddress)) throw new TargetRefused('url resolves to a private address');
}

/** Validates a webhook URL's form and, unless private targets are allowed, that its host resolves only to public addresses. */
export async function checkTarget(raw: string, policy: TargetPolicy, resolve: Resolver = defaultResolve): Promise<URL> {
  const url = checkUrlForm(raw, policy);
  const host = bareHostname(url);
  if (policy.allowPrivate || isIP(host) !== 0) return url;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new TargetRefused('url host does not resolve');
  }
  assertPublicAddresses(addresses);
  return url;
}
