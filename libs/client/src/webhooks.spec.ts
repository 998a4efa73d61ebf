import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError, WebhookVerifier } from './index.js';

const SECRET = `whsec_${Buffer.from('a signing secret of 32 bytes!!!!').toString('base64')}`;
const NEXT_SECRET = `whsec_${Buffer.from('the rotated secret of 32 bytes!!').toString('base64')}`;

const EVENT = {
  type: 'participant.canceled',
  timestamp: '2026-11-22T10:00:00.000Z',
  data: { id: 'p1', signupId: 's1', status: 'cancelled', organizationId: 'org_1', livemode: false },
};

/** A delivery signed as the dispatcher signs it: `v1,` and the HMAC of id, timestamp and body; one signature per secret. */
function delivery(secrets: string[], body = JSON.stringify(EVENT), at = new Date()) {
  const id = '5b3c2f4e-2d1a-4c61-9f0e-8a7b6c5d4e3f';
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, at, body));
  return {
    body,
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signatures.join(' '),
    },
  };
}

describe('webhook verification', () => {
  it('returns the typed event with its id from a signed delivery', () => {
    const { body, headers } = delivery([SECRET]);
    const event = verifyWebhook(SECRET, body, headers);
    expect(event).toEqual({ id: '5b3c2f4e-2d1a-4c61-9f0e-8a7b6c5d4e3f', ...EVENT });
    expect(event.type === 'participant.canceled' && event.data.signupId).toBe('s1');
  });

  it('takes the id from the signed webhook-id header, never from the body', () => {
    const { body, headers } = delivery([SECRET], JSON.stringify({ ...EVENT, id: 'chosen-by-the-body' }));
    expect(verifyWebhook(SECRET, body, headers).id).toBe('5b3c2f4e-2d1a-4c61-9f0e-8a7b6c5d4e3f');
  });

  it('reads the headers of a Fetch Headers, in any case, and a Buffer body', () => {
    const { body, headers } = delivery([SECRET]);
    const fetchHeaders = new Headers(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(new WebhookVerifier(SECRET).verify(Buffer.from(body), fetchHeaders).type).toBe('participant.canceled');
  });

  it('refuses a changed body, another secret and a stale timestamp', () => {
    const { body, headers } = delivery([SECRET]);
    expect(() => verifyWebhook(SECRET, body.replace('p1', 'p2'), headers)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(NEXT_SECRET, body, headers)).toThrow(WebhookVerificationError);
    const stale = delivery([SECRET], body, new Date(Date.now() - 10 * 60_000));
    expect(() => verifyWebhook(SECRET, stale.body, stale.headers)).toThrow(WebhookVerificationError);
  });

  it('accepts during a rotation a delivery signed by either secret, and both signatures at once', () => {
    const verifier = new WebhookVerifier([NEXT_SECRET, SECRET]);
    for (const secrets of [[SECRET], [NEXT_SECRET], [NEXT_SECRET, SECRET]]) {
      const { body, headers } = delivery(secrets);
      expect(verifier.verify(body, headers).id).toBe(headers['webhook-id']);
    }
  });
});
