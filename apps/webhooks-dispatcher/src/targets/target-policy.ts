import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { isForbiddenAddress } from './special-addresses.js';

/** How strictly webhook target URLs are checked. */
export interface TargetPolicy {
  /** Allow special-purpose (loopback, private, link-local…) targets and plain http (local development only). */
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

const PRIVATE_NAME_SUFFIXES = ['.localhost', '.local', '.internal'];

/**
 * The URL's hostname without IPv6 brackets or trailing dots, lower-cased. Sliced by hand: /\.+$/
 * would scan from every dot of a name of dots, quadratic in its length.
 */
export function bareHostname(url: URL): string {
  const { hostname } = url;
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  let end = host.length;
  while (end > 0 && host[end - 1] === '.') end--;
  return host.slice(0, end).toLowerCase();
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
