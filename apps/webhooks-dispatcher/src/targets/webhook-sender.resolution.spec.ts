import type { LookupAddress, LookupAllOptions } from 'node:dns';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { type AddressInfo, isIP } from 'node:net';
import { jest } from '@jest/globals';

/**
 * Send-time checks of what a hostname resolves to. The system resolver is the one thing replaced:
 * names under `.example.test` answer from ANSWERS, every other name goes to the real one.
 */
const realDns = createRequire(import.meta.url)('node:dns') as typeof import('node:dns');
const ANSWERS = new Map<string, string[]>();

function fakeLookup(
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
): void {
  const answer = ANSWERS.get(hostname);
  if (!answer) {
    realDns.lookup(hostname, options, callback);
    return;
  }
  process.nextTick(() =>
    callback(
      null,
      answer.map((address) => ({ address, family: isIP(address) })),
    ),
  );
}

jest.unstable_mockModule('node:dns', () => ({ ...realDns, default: { ...realDns, lookup: fakeLookup }, lookup: fakeLookup }));
const { closeWebhookConnections, postWebhook } = await import('./webhook-sender.js');

const PAYLOAD = JSON.stringify({ type: 'signup.created', id: 'evt_1' });

describe('postWebhook to a hostname', () => {
  let server: Server;
  let port: number;
  let received = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      received += 1;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  beforeEach(() => {
    received = 0;
  });

  afterAll(async () => {
    closeWebhookConnections();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A URL on the test server's port whose host answers `addresses`. */
  const hostAnswering = (name: string, addresses: string[]): URL => {
    const hostname = `${name}.example.test`;
    ANSWERS.set(hostname, addresses);
    return new URL(`http://${hostname}:${port}/hook`);
  };

  it.each([
    ['ipv4-compatible', '::7f00:1'],
    ['ipv4-compatible-dotted', '::127.0.0.1'],
    ['ipv4-mapped', '::ffff:127.0.0.1'],
    ['ipv4-mapped-hex', '::ffff:7f00:1'],
    ['ipv4-translated', '::ffff:0:7f00:1'],
    ['sixtofour', '2002:7f00:1::1'],
    ['nat64', '64:ff9b::7f00:1'],
    ['nat64-local', '64:ff9b:1::7f00:1'],
    ['teredo', '2001::1'],
    ['site-local', 'fec0::1'],
    ['unique-local', 'fc00::1'],
    ['link-local', 'fe80::1'],
    ['multicast', 'ff02::1'],
    ['shared', '100.64.0.1'],
    ['ietf', '192.0.0.8'],
    ['benchmarking', '198.18.0.1'],
    ['reserved', '240.0.0.1'],
  ])('refuses at send a name (%s) resolving to %s, without connecting', async (name, address) => {
    const result = await postWebhook(hostAnswering(name, [address]), {}, PAYLOAD, { timeoutMs: 2000, allowPrivate: false });
    expect(result).toMatchObject({ status: null, body: null, error: 'url resolves to a private address' });
    expect(received).toBe(0);
  });

  it('refuses a name resolving to a public address and a special one together', async () => {
    const result = await postWebhook(hostAnswering('mixed', ['93.184.215.14', '::7f00:1']), {}, PAYLOAD, {
      timeoutMs: 2000,
      allowPrivate: false,
    });
    expect(result).toMatchObject({ status: null, error: 'url resolves to a private address' });
  });

  it('refuses on a connection of its own too', async () => {
    const url = hostAnswering('own-connection', ['2002:7f00:1::1']);
    const result = await postWebhook(url, {}, PAYLOAD, { timeoutMs: 2000, allowPrivate: false, ownConnection: true });
    expect(result).toMatchObject({ status: null, error: 'url resolves to a private address' });
  });

  it('reaches a name resolving to loopback when private URLs are allowed', async () => {
    const url = hostAnswering('allowed', ['127.0.0.1']);
    await expect(postWebhook(url, {}, PAYLOAD, { timeoutMs: 2000, allowPrivate: true })).resolves.toMatchObject({
      status: 200,
      body: 'ok',
      error: null,
    });
    expect(received).toBe(1);
  });
});
