import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type AsyncAPIDocumentInterface, Parser, type SchemaInterface } from '@asyncapi/parser';
import { EVENT_TYPES, type EventMap, type EventType, type ItemEventData, type ParticipantEventData, type SlotEventData } from './events.js';
import type { SelectionView } from './participants.js';
import type { SignupView } from './signups.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const ERROR = 0;

/** A signup with every field of SignupView (Required: an optional field added to the type must be listed too). */
const signup: SignupView = {
  id: '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a5b6c',
  slug: 'potluck-x7k2',
  title: 'Neighbourhood potluck',
  description: null,
  status: 'draft',
  eventDate: '2026-12-24T18:00:00.000Z',
  timeZone: 'America/New_York',
  location: null,
  maxParticipants: null,
  requiresPhone: false,
  signupCloseDate: null,
  reminderHoursBefore: 24,
  waitlist: { enabled: false, mode: 'auto', offerMinutes: 1440 },
  seriesId: null,
  organizationId: 'org_0123456789abcdefghijklmn',
  participantCount: 0,
  publicUrl: 'http://localhost:3000/s/potluck-x7k2',
  livemode: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  publishedAt: null,
  closedAt: null,
  questions: [
    {
      id: '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a5b6f',
      type: 'single_choice',
      label: 'T-shirt size',
      required: true,
      options: ['S', 'M', 'L'],
      min: null,
      max: null,
    },
  ],
  slots: [],
  items: [],
} satisfies Required<SignupView>;

const apiKeyRevoked: EventMap['auth.apikey.revoked'] = {
  apiKeyId: 'key_0123456789abcdefghijklmn',
  organizationId: 'org_0123456789abcdefghijklmn',
  livemode: false,
} satisfies Required<EventMap['auth.apikey.revoked']>;

const tierChanged: EventMap['auth.organization.tier_changed'] = {
  organizationId: 'org_0123456789abcdefghijklmn',
  tier: 'pro',
  previousTier: 'free',
  timeZone: 'Europe/Berlin',
  livemode: true,
} satisfies Required<EventMap['auth.organization.tier_changed']>;

const selection: SelectionView = {
  type: 'slot',
  id: '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a5b6e',
  quantity: 1,
} satisfies Required<SelectionView>;

/** A participant event's data with every field (Required: a field added to the type must be documented too). */
const participantData: ParticipantEventData = {
  id: '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a5b6d',
  signupId: signup.id,
  name: 'Ana Lima',
  email: 'ana@example.com',
  phone: null,
  selections: [selection],
  answers: { '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a5b6f': 'M' },
  createdAt: '2026-01-02T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  remindedAt: null,
  status: 'confirmed',
  statusChangedAt: '2026-11-22T10:00:00.000Z',
  cancelledAt: null,
  checkedInAt: null,
  noShowAt: null,
  hoursServed: null,
  waitlist: [],
  organizationId: signup.organizationId,
  livemode: false,
} satisfies Required<ParticipantEventData>;

const slotData: SlotEventData = {
  id: selection.id,
  title: 'Setup',
  description: null,
  startTime: null,
  endTime: null,
  capacity: 2,
  taken: 2,
  remaining: 0,
  updatedAt: '2026-11-22T10:00:00.000Z',
  signupId: signup.id,
  organizationId: signup.organizationId,
  livemode: false,
} satisfies Required<SlotEventData>;

const itemData: ItemEventData = {
  id: '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a5b6f',
  name: 'Potato salad',
  notes: null,
  quantityNeeded: 3,
  quantityClaimed: 3,
  remaining: 0,
  signupId: signup.id,
  organizationId: signup.organizationId,
  livemode: true,
} satisfies Required<ItemEventData>;

const reminderSent: EventMap['reminder.sent'] = {
  id: '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a5b70',
  signupId: signup.id,
  participantId: participantData.id,
  trigger: 'manual',
  sentAt: '2026-01-03T00:00:00.000Z',
  organizationId: signup.organizationId,
  livemode: true,
  channel: 'sms',
} satisfies Required<EventMap['reminder.sent']>;

/** The optional members of SignupView: on the single read only, never required in an event. */
const OPTIONAL_SIGNUP_FIELDS = ['slots', 'items'];

/**
 * The property schema `name` of an object schema, looking through allOf branches too, the last
 * branch first: a message payload is allOf [envelope, the event's own type and data].
 */
function property(schema: SchemaInterface, name: string): SchemaInterface | undefined {
  const own = schema.properties()?.[name];
  if (own) return own;
  for (const branch of [...(schema.allOf() ?? [])].reverse()) {
    const found = property(branch, name);
    if (found) return found;
  }
  return undefined;
}

function typesOf(schema: SchemaInterface): string[] {
  const type = schema.type();
  return type === undefined ? [] : Array.isArray(type) ? type : [type];
}

describe('docs/asyncapi.yaml', () => {
  let document: AsyncAPIDocumentInterface;

  beforeAll(async () => {
    const text = readFileSync(resolve(ROOT, 'docs/asyncapi.yaml'), 'utf8');
    const parsed = await new Parser().parse(text);
    const errors = parsed.diagnostics.filter((d) => d.severity === ERROR).map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(errors).toEqual([]);
    expect(parsed.document).toBeDefined();
    document = parsed.document!;
  });

  function payloadOf(type: EventType): SchemaInterface {
    const channel = document
      .channels()
      .all()
      .find((c) => c.address() === `events.${type}`);
    if (!channel) throw new Error(`no channel for ${type}`);
    const [message, ...others] = channel.messages().all();
    expect(others).toHaveLength(0);
    const payload = message?.payload();
    if (!payload) throw new Error(`no payload for ${type}`);
    return payload;
  }

  it('is AsyncAPI 3.0.0 on a NATS server', () => {
    expect(document.version()).toBe('3.0.0');
    expect(
      document
        .servers()
        .all()
        .map((s) => s.protocol()),
    ).toEqual(['nats']);
  });

  it('has exactly one events.<type> channel per event type, each with a receive operation', () => {
    const addresses = document
      .channels()
      .all()
      .map((c) => c.address());
    expect([...addresses].sort()).toEqual(EVENT_TYPES.map((type) => `events.${type}`).sort());
    for (const channel of document.channels().all()) {
      expect(
        channel
          .operations()
          .all()
          .map((o) => o.action()),
      ).toEqual(['receive']);
    }
  });

  it('pins each message to its event type', () => {
    for (const type of EVENT_TYPES) expect(property(payloadOf(type), 'type')?.const()).toBe(type);
  });

  it('documents the signup.* data as exactly the fields of SignupView', () => {
    const data = property(payloadOf('signup.created'), 'data');
    expect(Object.keys(data?.properties() ?? {}).sort()).toEqual(Object.keys(signup).sort());
    const required = Object.keys(signup).filter((key) => !OPTIONAL_SIGNUP_FIELDS.includes(key));
    expect([...(data?.required() ?? [])].sort()).toEqual(required.sort());
    const nullable = Object.entries(signup)
      .filter(([, value]) => value === null)
      .map(([key]) => key);
    expect(nullable.filter((key) => !typesOf(data!.properties()![key]!).includes('null'))).toEqual([]);
    for (const type of EVENT_TYPES.filter((t) => t.startsWith('signup.'))) {
      expect(Object.keys(property(payloadOf(type), 'data')?.properties() ?? {}).sort()).toEqual(Object.keys(signup).sort());
    }
  });

  it('documents the auth.* data as exactly their TypeScript shapes, all required', () => {
    for (const [type, sample] of [
      ['auth.apikey.revoked', apiKeyRevoked],
      ['auth.organization.tier_changed', tierChanged],
    ] as const) {
      const data = property(payloadOf(type), 'data');
      expect(Object.keys(data?.properties() ?? {}).sort()).toEqual(Object.keys(sample).sort());
      expect([...(data?.required() ?? [])].sort()).toEqual(Object.keys(sample).sort());
    }
  });

  /** The schema documents exactly the sample's fields, all required, null allowed where the sample has null. */
  function expectExactly(schema: SchemaInterface | undefined, sample: object): void {
    expect(Object.keys(schema?.properties() ?? {}).sort()).toEqual(Object.keys(sample).sort());
    expect([...(schema?.required() ?? [])].sort()).toEqual(Object.keys(sample).sort());
    const nullable = Object.entries(sample)
      .filter(([, value]) => value === null)
      .map(([key]) => key);
    expect(nullable.filter((key) => !typesOf(schema!.properties()![key]!).includes('null'))).toEqual([]);
  }

  it('documents the participant.* data as exactly ParticipantEventData, with its selections', () => {
    for (const type of [
      'participant.registered',
      'participant.updated',
      'participant.canceled',
      'participant.checked_in',
      'participant.no_show',
    ] as const) {
      const data = property(payloadOf(type), 'data');
      expectExactly(data, participantData);
      const items = data!.properties()!['selections']!.items();
      expectExactly(Array.isArray(items) ? items[0] : items, selection);
      expect(typesOf(data!.properties()!['selections']!)).toEqual(['array']);
    }
  });

  it('documents the slot.* data as exactly SlotEventData and the item.* data as exactly ItemEventData', () => {
    for (const type of ['slot.updated', 'slot.filled', 'slot.opened'] as const) expectExactly(property(payloadOf(type), 'data'), slotData);
    for (const type of ['item.filled', 'item.opened'] as const) expectExactly(property(payloadOf(type), 'data'), itemData);
  });

  it('documents the reminder.sent data as exactly ReminderSentData', () => {
    expectExactly(property(payloadOf('reminder.sent'), 'data'), reminderSent);
  });

  it('has a CloudEvents envelope requiring the core and extension attributes', () => {
    const envelope = document.components().schemas().get('CloudEvent');
    if (!envelope) throw new Error('no CloudEvent schema in components');
    expect(envelope.required()).toEqual(
      expect.arrayContaining(['specversion', 'id', 'source', 'type', 'time', 'orgid', 'livemode', 'data']),
    );
    expect(envelope.required()).not.toContain('subject');
    expect(envelope.properties()?.['specversion']?.const()).toBe('1.0');
    expect(envelope.properties()?.['id']?.format()).toBe('uuid');
    expect(envelope.properties()?.['time']?.format()).toBe('date-time');
    for (const type of EVENT_TYPES)
      expect(
        payloadOf(type)
          .allOf()
          ?.map((s) => s.id()),
      ).toContain(envelope.id());
  });
});
