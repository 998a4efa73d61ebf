import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeTwilio, startFakeTwilio } from '#libs/testing';
import { SmsFailure, type SmsFailureKind } from './sms-provider.js';
import { type TwilioOptions, TwilioSmsProvider } from './twilio-sms-provider.js';

const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'auth-token-5f1c9e';
const FROM = '+15550000001';
const TO = '+15557654321';

describe('TwilioSmsProvider', () => {
  const fakes: FakeTwilio[] = [];
  const startFake = async (): Promise<FakeTwilio> => {
    const fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
    fakes.push(fake);
    return fake;
  };
  const provider = (fake: FakeTwilio, options: Partial<TwilioOptions> = {}) =>
    new TwilioSmsProvider({
      apiBase: fake.baseUrl,
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      from: FROM,
      timeoutMs: 2000,
      ...options,
    });
  const failureOf = async (sending: Promise<unknown>): Promise<SmsFailure> => {
    const err: unknown = await sending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SmsFailure);
    return err as SmsFailure;
  };
  const expectFailure = async (sending: Promise<unknown>, kind: SmsFailureKind): Promise<SmsFailure> => {
    const failure = await failureOf(sending);
    expect(failure.kind).toBe(kind);
    return failure;
  };

  afterAll(async () => {
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  it('posts To, From and Body form-encoded with basic auth and answers the message sid', async () => {
    const fake = await startFake();
    const { id } = await provider(fake).send({ to: TO, body: 'Potluck tomorrow at 6' });

    expect(id).toMatch(/^SM[0-9a-f]{32}$/);
    expect(fake.messages).toEqual([
      { sid: id, to: TO, from: FROM, messagingServiceSid: undefined, body: 'Potluck tomorrow at 6', at: expect.any(Number) },
    ]);
    expect(fake.requestCount).toBe(1);
  });

  it('sends a MessagingServiceSid instead of From when from is a Messaging Service', async () => {
    const fake = await startFake();
    const messagingServiceSid = 'MG0123456789abcdef0123456789abcdef';
    const { id } = await provider(fake, { from: messagingServiceSid }).send({ to: TO, body: 'Shift starts at 9' });

    expect(fake.messages).toEqual([
      { sid: id, to: TO, from: undefined, messagingServiceSid, body: 'Shift starts at 9', at: expect.any(Number) },
    ]);
  });

  it('answers unavailable when Twilio is down (503)', async () => {
    const fake = await startFake();
    fake.mode('down');
    const failure = await expectFailure(provider(fake).send({ to: TO, body: 'Hi' }), 'unavailable');

    expect(failure.message).toContain('503');
    expect(failure.message).toContain('20500');
  });

  it('answers unavailable when Twilio refuses the credentials (401), without the token in the message', async () => {
    const fake = await startFake();
    const wrongToken = 'wrong-token-8d2a47';
    const failure = await expectFailure(provider(fake, { authToken: wrongToken }).send({ to: TO, body: 'Hi' }), 'unavailable');

    expect(failure.message).toContain('401');
    expect(failure.message).toContain('20003');
    expect(failure.message).not.toContain(wrongToken);
    expect(fake.messages).toEqual([]);
  });

  it('answers rejected for an invalid number (21211), with the number masked in the message', async () => {
    const fake = await startFake();
    fake.reject(TO, 21211);
    const failure = await expectFailure(provider(fake).send({ to: TO, body: 'Hi' }), 'rejected');

    expect(failure.message).toContain('21211');
    expect(failure.message).toContain('+15•••••••21');
    expect(failure.message).not.toContain(TO);
  });

  it('answers opted_out when the recipient replied STOP (21610)', async () => {
    const fake = await startFake();
    fake.reject(TO, 21610);
    await expectFailure(provider(fake).send({ to: TO, body: 'Hi' }), 'opted_out');
  });

  it('answers unavailable when Twilio refuses our sender (21608 unverified trial account), which says nothing about the recipient', async () => {
    const fake = await startFake();
    fake.reject(TO, 21608);
    await expectFailure(provider(fake).send({ to: TO, body: 'Hi' }), 'unavailable');
  });

  it('takes any 2xx as accepted, even without a readable sid, so the text is never sent again', async () => {
    const server = createServer((_req, res) => res.writeHead(201, { 'content-type': 'text/plain' }).end('queued'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const sms = new TwilioSmsProvider({ apiBase, accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: FROM, timeoutMs: 2000 });
      expect(await sms.send({ to: TO, body: 'Hi' })).toEqual({ id: '' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers timeout when Twilio does not answer within the timeout', async () => {
    const fake = await startFake();
    fake.mode('timeout');
    const failure = await expectFailure(provider(fake, { timeoutMs: 200 }).send({ to: TO, body: 'Hi' }), 'timeout');

    expect(failure.message).toContain('200 ms');
    expect(fake.requestCount).toBe(1);
  });

  it('answers unavailable when nothing listens on the port', async () => {
    const fake = await startFake();
    await fake.close();
    const failure = await expectFailure(provider(fake).send({ to: TO, body: 'Hi' }), 'unavailable');

    expect(failure.message).toContain('could not be reached');
  });
});
