import { checkTarget, checkUrlForm, type Resolver, type TargetPolicy, TargetRefused } from './target-policy.js';

const LIVE: TargetPolicy = { allowPrivate: false, requireHttps: true };
const TEST_MODE: TargetPolicy = { allowPrivate: false, requireHttps: false };
const LOCAL_DEV: TargetPolicy = { allowPrivate: true, requireHttps: true };

/** The refusal reason thrown by fn, or null when it does not throw TargetRefused. */
function refusalOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof TargetRefused) return err.reason;
    throw err;
  }
}

describe('checkUrlForm', () => {
  it('accepts a public https URL', () => {
    const url = checkUrlForm('https://hooks.example.com/in?x=1', LIVE);
    expect(url.href).toBe('https://hooks.example.com/in?x=1');
  });

  it('refuses http when https is required', () => {
    expect(refusalOf(() => checkUrlForm('http://hooks.example.com/', LIVE))).toBe('url must use https');
  });

  it('accepts http when https is not required', () => {
    expect(checkUrlForm('http://hooks.example.com/', TEST_MODE).protocol).toBe('http:');
  });

  it('accepts http and private hosts when private URLs are allowed', () => {
    expect(checkUrlForm('http://127.0.0.1:3000/hook', LOCAL_DEV).port).toBe('3000');
    expect(checkUrlForm('http://localhost:3000/hook', LOCAL_DEV).hostname).toBe('localhost');
  });

  it.each([
    ['not a url', 'url is not a valid URL'],
    ['ftp://hooks.example.com/', 'url must use http or https'],
    ['https://user:secret@hooks.example.com/', 'url must not contain credentials'],
    ['https://user@hooks.example.com/', 'url must not contain credentials'],
    ['https://hooks.example.com/#frag', 'url must not contain a fragment'],
    ['https://hooks.example.com/#', 'url must not contain a fragment'],
  ])('refuses malformed %s', (raw, reason) => {
    expect(refusalOf(() => checkUrlForm(raw, LIVE))).toBe(reason);
  });

  it.each([
    ['https://10.0.0.5/', '10.0.0.5'],
    ['https://127.0.0.1:8443/', '127.0.0.1'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['https://0x7f.1/', '127.0.0.1'],
    ['https://2130706433/', '127.0.0.1'],
    ['https://[::1]/', '::1'],
    ['https://[fd00:ec2::254]/', 'fd00:ec2::254'],
    ['https://[::ffff:192.168.0.1]/', '::ffff:c0a8:1'],
    ['https://[::7f00:1]/', '::7f00:1'],
    ['https://[::127.0.0.1]/', '::7f00:1'],
    ['https://[::ffff:7f00:1]/', '::ffff:7f00:1'],
    ['https://[2002:7f00:1::1]/', '2002:7f00:1::1'],
    ['https://[64:ff9b::127.0.0.1]/', '64:ff9b::7f00:1'],
    ['https://[64:ff9b:1::a00:1]/', '64:ff9b:1::a00:1'],
    ['https://[2001::1]/', '2001::1'],
    ['https://[fec0::1]/', 'fec0::1'],
  ])('refuses literal private IP %s', (raw, shown) => {
    expect(refusalOf(() => checkUrlForm(raw, LIVE))).toBe(`url points to a private address (${shown})`);
  });

  it.each([
    ['https://localhost/', 'localhost'],
    ['https://LOCALHOST./', 'localhost'],
    ['https://api.localhost/', 'api.localhost'],
    ['https://printer.local/', 'printer.local'],
    ['https://metadata.google.internal/', 'metadata.google.internal'],
  ])('refuses local hostname %s', (raw, shown) => {
    expect(refusalOf(() => checkUrlForm(raw, LIVE))).toBe(`url host is not public (${shown})`);
  });

  it('accepts public literal IPs', () => {
    expect(checkUrlForm('https://8.8.8.8/', LIVE).hostname).toBe('8.8.8.8');
    expect(checkUrlForm('https://[2606:4700::1111]/', LIVE).hostname).toBe('[2606:4700::1111]');
  });
});

describe('checkTarget', () => {
  /** A resolver answering from a fixed table and recording the hosts it was asked for. */
  const resolverOf = (table: Record<string, string[]>): Resolver & { calls: string[] } => {
    const calls: string[] = [];
    const resolve = async (host: string): Promise<string[]> => {
      calls.push(host);
      const addresses = table[host];
      if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return addresses;
    };
    return Object.assign(resolve, { calls });
  };

  it('accepts a host resolving only to public addresses', async () => {
    const resolve = resolverOf({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] });
    const url = await checkTarget('https://hooks.example.com/in', LIVE, resolve);
    expect(url.hostname).toBe('hooks.example.com');
    expect(resolve.calls).toEqual(['hooks.example.com']);
  });

  it('refuses when any one of several addresses is private', async () => {
    const resolve = resolverOf({ 'rebind.example.com': ['93.184.216.34', '10.0.0.5', '2606:2800:220:1::1'] });
    await expect(checkTarget('https://rebind.example.com/', LIVE, resolve)).rejects.toEqual(
      new TargetRefused('url resolves to a private address'),
    );
  });

  it('refuses a host resolving to IPv6 metadata', async () => {
    const resolve = resolverOf({ 'imds.example.com': ['fd00:ec2::254'] });
    await expect(checkTarget('https://imds.example.com/', LIVE, resolve)).rejects.toMatchObject({
      reason: 'url resolves to a private address',
    });
  });

  it('refuses when resolution fails', async () => {
    await expect(checkTarget('https://nowhere.example.com/', LIVE, resolverOf({}))).rejects.toMatchObject({
      reason: 'url host does not resolve',
    });
  });

  it('refuses when resolution returns no address', async () => {
    const resolve = resolverOf({ 'empty.example.com': [] });
    await expect(checkTarget('https://empty.example.com/', LIVE, resolve)).rejects.toMatchObject({
      reason: 'url host does not resolve',
    });
  });

  it('refuses a bad form before resolving', async () => {
    const resolve = resolverOf({});
    await expect(checkTarget('http://hooks.example.com/', LIVE, resolve)).rejects.toMatchObject({ reason: 'url must use https' });
    expect(resolve.calls).toEqual([]);
  });

  it('does not resolve literal IPs', async () => {
    const resolve = resolverOf({});
    await expect(checkTarget('https://8.8.8.8/', LIVE, resolve)).resolves.toBeInstanceOf(URL);
    expect(resolve.calls).toEqual([]);
  });

  it('skips resolution when private URLs are allowed', async () => {
    const resolve = resolverOf({});
    const url = await checkTarget('http://webhook-sink.internal:8080/', LOCAL_DEV, resolve);
    expect(url.port).toBe('8080');
    expect(resolve.calls).toEqual([]);
  });
});
