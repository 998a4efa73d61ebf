import { cloudEvent } from './cloud-event.js';
import type { CloudEvent } from './events.js';

/** What a consumer of every type reads from one event; each branch reads its type's payload without a cast. */
function keyOf(event: CloudEvent): string {
  switch (event.type) {
    case 'auth.apikey.revoked':
      return event.data.apiKeyId;
    case 'auth.oauth.grant_revoked':
      return event.data.grantId;
    case 'reminder.sent':
      return event.data.participantId;
    default:
      return event.orgid;
  }
}

const meta = { orgid: 'org_1', livemode: false };

describe('CloudEvent', () => {
  it('narrows its data by its type', () => {
    expect(keyOf(cloudEvent('test', 'auth.apikey.revoked', { apiKeyId: 'key_1', organizationId: 'org_1', livemode: false }, meta))).toBe(
      'key_1',
    );
    expect(
      keyOf(cloudEvent('test', 'auth.oauth.grant_revoked', { grantId: 'grant_1', organizationId: 'org_1', livemode: false }, meta)),
    ).toBe('grant_1');
  });

  it('refuses at compile time data read before the type is known, and data of another type', () => {
    const event = cloudEvent(
      'test',
      'auth.apikey.revoked',
      { apiKeyId: 'key_1', organizationId: 'org_1', livemode: false },
      meta,
    ) as CloudEvent;
    // @ts-expect-error: any event's data has no apiKeyId until the type says it is a revoked key
    expect(event.data.apiKeyId).toBe('key_1');
    // @ts-expect-error: a revoked key's event carries its own payload, not a grant's
    cloudEvent('test', 'auth.apikey.revoked', { grantId: 'grant_1', organizationId: 'org_1', livemode: false }, meta);
    // @ts-expect-error: an event of one type is not an event of another
    const reminder: CloudEvent<'reminder.sent'> = event;
    expect(reminder.type).toBe('auth.apikey.revoked');
  });
});
