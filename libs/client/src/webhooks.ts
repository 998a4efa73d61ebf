import { Webhook } from 'standardwebhooks';
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/** Every event type a webhook endpoint can subscribe to (docs/webhooks.md, "Event catalog"). */
export type WebhookEventType = Exclude<NonNullable<Schemas['CreateWebhookDto']['eventTypes']>[number], '*'>;

/** The resource an event of type `T` carries, as the REST API shows it. */
export type WebhookEventResource<T extends WebhookEventType> = T extends `signup.${string}`
  ? Schemas['SignupView']
  : T extends `participant.${string}`
    ? Schemas['ParticipantView']
    : T extends `slot.${string}`
      ? Schemas['SlotView'] & { signupId: string }
      : T extends `item.${string}`
        ? Schemas['ItemView'] & { signupId: string }
        : T extends 'reminder.sent'
          ? {
              id: string;
              signupId: string;
              participantId: string;
              trigger: 'manual' | 'automatic';
              sentAt: string;
              channel: 'sms' | 'email';
            }
          : { endpointId: string };

/**
 * An event as a webhook delivers it (and the event log lists it): its id (the `webhook-id`
 * header: deduplicate on it), type, time, and the resource with `organizationId` and `livemode`.
 * Discriminated by `type`.
 */
export type WebhookEvent = {
  [T in WebhookEventType]: {
    id: string;
    type: T;
    timestamp: string;
    data: WebhookEventResource<T> & { organizationId: string; livemode: boolean };
  };
}[WebhookEventType];

/** Headers as Node's IncomingMessage, a Fetch Headers or a plain object hold them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const entries: [string, string | string[] | undefined][] = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return Object.fromEntries(
    entries
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(' ') : value!]),
  );
}

/**
 * Checks deliveries the Standard Webhooks way with an endpoint's signing secret (`whsec_…`):
 * the signature over id, timestamp and the raw body, and a timestamp within 5 minutes.
 * During a rotation pass both secrets: a delivery signed by either is accepted.
 */
export class WebhookVerifier {
  private readonly webhooks: Webhook[];

  constructor(secrets: string | string[]) {
    this.webhooks = (Array.isArray(secrets) ? secrets : [secrets]).map((secret) => new Webhook(secret));
    if (this.webhooks.length === 0) throw new TypeError('A signing secret is required');
  }

  /**
   * The verified event of a delivery, from its raw body (exactly as received: not parsed and
   * serialized again) and headers. Throws a WebhookVerificationError when it is forged or stale.
   */
  verify(rawBody: string | Buffer, headers: WebhookHeaders): WebhookEvent {
    const record = headerRecord(headers);
    let failure: unknown;
    for (const webhook of this.webhooks) {
      try {
        const payload = webhook.verify(rawBody, record) as Omit<WebhookEvent, 'id'>;
        return { ...payload, id: record['webhook-id']! } as WebhookEvent;
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }
}

/** Verifies one delivery (see WebhookVerifier). */
export function verifyWebhook(secret: string | string[], rawBody: string | Buffer, headers: WebhookHeaders): WebhookEvent {
  return new WebhookVerifier(secret).verify(rawBody, headers);
}

export { WebhookVerificationError } from 'standardwebhooks';
