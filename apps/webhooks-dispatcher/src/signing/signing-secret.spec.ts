import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateSigningSecret, signatureHeader, webhookHeaders } from './signing-secret.js';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

const body = JSON.stringify({
  type: 'signup.created',
  timestamp: new Date().toISOString(),
  data: { signupId: 'sgn_01HZX3J8Q9', email: 'ada@example.com', plan: 'pro', tags: ['beta', 'ünïcødé'] },
});

describe('generateSigningSecret', () => {
  it('returns whsec_ followed by standard base64 of 32 bytes', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('returns a different secret each time', () => {
    const secrets = new Set(Array.from({ length: 100 }, generateSigningSecret));
    expect(secrets.size).toBe(100);
  });
});

describe('signatureHeader', () => {
  it('is the base64 HMAC-SHA256 of "<id>.<timestamp>.<body>" keyed by the decoded secret', () => {
    const key = Buffer.alloc(32, 7);
    const expected = createHmac('sha256', key).update('msg_1.1700000000.{"a":1}').digest('base64');
    expect(signatureHeader([`whsec_${key.toString('base64')}`], 'msg_1', 1700000000, '{"a":1}')).toBe(`v1,${expected}`);
  });

  it('signs once per secret, space-separated, in the given order', () => {
    const [a, b] = [generateSigningSecret(), generateSigningSecret()];
    const single = (secret: string): string => signatureHeader([secret], 'msg_1', 1700000000, body);
    expect(signatureHeader([a, b], 'msg_1', 1700000000, body)).toBe(`${single(a)} ${single(b)}`);
    expect(signatureHeader([b, a], 'msg_1', 1700000000, body)).toBe(`${single(b)} ${single(a)}`);
  });

  it('rejects an empty list of secrets', () => {
    expect(() => signatureHeader([], 'msg_1', 1700000000, body)).toThrow('At least one signing secret is required');
  });

  it('rejects a secret without the whsec_ prefix without echoing it', () => {
    const raw = generateSigningSecret().slice('whsec_'.length);
    expect(() => signatureHeader([raw], 'msg_1', 1700000000, body)).toThrow('must start with "whsec_"');
    expect(() => signatureHeader([generateSigningSecret(), raw], 'msg_1', 1700000000, body)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(raw) }),
    );
  });

  it('rejects a secret that is not base64 after the prefix', () => {
    expect(() => signatureHeader(['whsec_'], 'msg_1', 1700000000, body)).toThrow('must be base64');
    expect(() => signatureHeader(['whsec_not base64!'], 'msg_1', 1700000000, body)).toThrow('must be base64');
  });
});

describe('webhookHeaders verified by standardwebhooks', () => {
  const id = 'msg_2bZ6Gg2xT0k9';

  it('produces the three Standard Webhooks headers', () => {
    const timestamp = nowSeconds();
    const headers = webhookHeaders([generateSigningSecret()], id, timestamp, body);
    expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toBe(String(timestamp));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('verifies with the secret and returns the parsed payload', () => {
    const secret = generateSigningSecret();
    const headers = webhookHeaders([secret], id, nowSeconds(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('verifies with each secret alone during a rotation', () => {
    const [current, previous] = [generateSigningSecret(), generateSigningSecret()];
    const headers = webhookHeaders([current, previous], id, nowSeconds(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('fails for a tampered body', () => {
    const secret = generateSigningSecret();
    const headers = webhookHeaders([secret], id, nowSeconds(), body);
    const tampered = body.replace('"plan":"pro"', '"plan":"enterprise"');
    expect(tampered).not.toBe(body);
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow('No matching signature found');
  });

  it('fails when the timestamp header differs from the signed one', () => {
    const secret = generateSigningSecret();
    const signedAt = nowSeconds();
    const headers = { ...webhookHeaders([secret], id, signedAt, body), 'webhook-timestamp': String(signedAt - 1) };
    expect(() => new Webhook(secret).verify(body, headers)).toThrow('No matching signature found');
  });

  it('fails when the id header differs from the signed one', () => {
    const secret = generateSigningSecret();
    const headers = { ...webhookHeaders([secret], id, nowSeconds(), body), 'webhook-id': 'msg_other' };
    expect(() => new Webhook(secret).verify(body, headers)).toThrow('No matching signature found');
  });

  it('fails for an unrelated third secret during a rotation', () => {
    const headers = webhookHeaders([generateSigningSecret(), generateSigningSecret()], id, nowSeconds(), body);
    expect(() => new Webhook(generateSigningSecret()).verify(body, headers)).toThrow('No matching signature found');
  });
});
