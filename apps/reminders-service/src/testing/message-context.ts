import type { ParticipantMessageContext, WaitlistEntryView } from '#libs/contracts';

export const ORIGIN = 'https://signups.example.test';
export const TOKEN = 'cnf_0123456789abcdefghijABCDEFGHIJ';
export const IDS = {
  signup: '01938a6e-0000-7000-8000-000000000001',
  participant: '01938a6e-0000-7000-8000-000000000002',
  setup: '01938a6e-0000-7000-8000-000000000003',
  cleanup: '01938a6e-0000-7000-8000-000000000004',
  salad: '01938a6e-0000-7000-8000-000000000005',
  entry: '01938a6e-0000-7000-8000-000000000006',
} as const;

/**
 * The context of Ana Lima, confirmed for the Setup slot and two salads of a winter potluck in New
 * York (17:00 UTC is noon there), with the overrides; `signup`'s and `participant`'s fields merge.
 */
export function messageContext(
  overrides: {
    signup?: Partial<ParticipantMessageContext['signup']>;
    participant?: Partial<ParticipantMessageContext['participant']>;
  } & Partial<Omit<ParticipantMessageContext, 'signup' | 'participant'>> = {},
): ParticipantMessageContext {
  const { signup, participant, ...rest } = overrides;
  return {
    signup: {
      id: IDS.signup,
      title: 'Winter potluck',
      description: 'Bring a dish to share.\nParking behind the hall.',
      location: 'Town hall, 1 Main St',
      eventDate: '2026-12-05T17:00:00.000Z',
      timeZone: 'America/New_York',
      publicUrl: `${ORIGIN}/s/winter-potluck-x7k2q9`,
      status: 'published',
      updatedAt: '2026-11-20T09:00:00.000Z',
      organizationId: 'org_potluck',
      livemode: true,
      ...signup,
    },
    participant: {
      id: IDS.participant,
      signupId: IDS.signup,
      name: 'Ana Lima',
      email: 'ana@example.com',
      phone: null,
      selections: [
        { type: 'slot', id: IDS.setup, quantity: 1 },
        { type: 'item', id: IDS.salad, quantity: 2 },
      ],
      answers: {},
      createdAt: '2026-11-22T10:00:00.000Z',
      updatedAt: '2026-11-22T10:00:00.000Z',
      remindedAt: null,
      status: 'confirmed',
      statusChangedAt: '2026-11-22T10:00:00.000Z',
      cancelledAt: null,
      checkedInAt: null,
      noShowAt: null,
      hoursServed: null,
      waitlist: [],
      livemode: true,
      ...participant,
    },
    slots: [
      {
        id: IDS.setup,
        title: 'Setup',
        startsAt: '2026-12-05T16:00:00.000Z',
        endsAt: '2026-12-05T18:00:00.000Z',
        updatedAt: '2026-11-22T10:00:00.000Z',
      },
      { id: IDS.cleanup, title: 'Cleanup', startsAt: '2026-12-05T20:00:00.000Z', endsAt: null, updatedAt: '2026-11-21T10:00:00.000Z' },
    ],
    items: [{ id: IDS.salad, name: 'Salad', updatedAt: '2026-11-22T10:00:00.000Z' }],
    manageUrl: `${ORIGIN}/r/${TOKEN}`,
    offers: [],
    ...rest,
  };
}

/** A line entry of the participant: waiting at `position`, or offered until `offerExpiresAt`. */
export function entry(overrides: Partial<WaitlistEntryView> = {}): WaitlistEntryView {
  return {
    id: IDS.entry,
    type: 'slot',
    targetId: IDS.cleanup,
    quantity: 1,
    state: 'waiting',
    position: 2,
    joinedAt: '2026-11-22T10:00:00.000Z',
    offeredAt: null,
    offerExpiresAt: null,
    ...overrides,
  };
}
