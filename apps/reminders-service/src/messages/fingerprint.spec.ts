import type { ParticipantMessageContext } from '#libs/contracts';
import { entry, IDS, messageContext } from '../testing/message-context.js';
import { contextAsOf, isNews, messageFingerprint } from './fingerprint.js';

const base = messageContext({ participant: { waitlist: [entry()] } });
const fingerprint = messageFingerprint(base);

const changed = (what: (context: ParticipantMessageContext) => ParticipantMessageContext) =>
  messageFingerprint(what(structuredClone(base)));

describe('the fingerprint of what a message shows', () => {
  it('is a SHA-256 digest, the same for the same registration', () => {
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(messageFingerprint(structuredClone(base))).toBe(fingerprint);
  });

  it.each<[string, (c: ParticipantMessageContext) => ParticipantMessageContext]>([
    ['the title', (c) => ({ ...c, signup: { ...c.signup, title: 'Summer potluck' } })],
    ['the date', (c) => ({ ...c, signup: { ...c.signup, eventDate: '2026-12-06T17:00:00.000Z' } })],
    ['the time zone', (c) => ({ ...c, signup: { ...c.signup, timeZone: 'Europe/Paris' } })],
    ['the location', (c) => ({ ...c, signup: { ...c.signup, location: null } })],
    ['the name', (c) => ({ ...c, participant: { ...c.participant, name: 'Ana L.' } })],
    ['the address', (c) => ({ ...c, participant: { ...c.participant, email: 'ana@example.org' } })],
    ['the status', (c) => ({ ...c, participant: { ...c.participant, status: 'cancelled' } })],
    ['a quantity', (c) => ({ ...c, participant: { ...c.participant, selections: [{ type: 'slot', id: IDS.setup, quantity: 2 }] } })],
    ['a slot held', (c) => ({ ...c, participant: { ...c.participant, selections: [] } })],
    ["a slot's times", (c) => ({ ...c, slots: c.slots.map((s) => ({ ...s, startsAt: '2026-12-05T15:00:00.000Z' })) })],
    ["a slot's title", (c) => ({ ...c, slots: c.slots.map((s) => ({ ...s, title: `${s.title}!` })) })],
    ["an item's name", (c) => ({ ...c, items: c.items.map((i) => ({ ...i, name: 'Soup' })) })],
    ['a line left', (c) => ({ ...c, participant: { ...c.participant, waitlist: [] } })],
    [
      'an offer',
      (c) => ({
        ...c,
        participant: {
          ...c.participant,
          waitlist: [entry({ state: 'offered', position: null, offerExpiresAt: '2026-12-01T10:00:00.000Z' })],
        },
      }),
    ],
  ])('changes with %s', (_what, change) => {
    expect(changed(change)).not.toBe(fingerprint);
  });

  it.each<[string, (c: ParticipantMessageContext) => ParticipantMessageContext]>([
    ['the phone', (c) => ({ ...c, participant: { ...c.participant, phone: '+14155550123' } })],
    ['the answers', (c) => ({ ...c, participant: { ...c.participant, answers: { q: 'yes' } } })],
    ['the hours served', (c) => ({ ...c, participant: { ...c.participant, hoursServed: 3, checkedInAt: '2026-12-05T17:00:00.000Z' } })],
    ['the position in a line (others move it)', (c) => ({ ...c, participant: { ...c.participant, waitlist: [entry({ position: 1 })] } })],
    ['the description', (c) => ({ ...c, signup: { ...c.signup, description: 'Other words.' } })],
    [
      'the updatedAt of anything',
      (c) => ({
        ...c,
        signup: { ...c.signup, updatedAt: '2026-11-29T00:00:00.000Z' },
        participant: { ...c.participant, updatedAt: '2026-11-29T00:00:00.000Z' },
      }),
    ],
    ['the edit link', (c) => ({ ...c, manageUrl: null })],
    ['the order of selections', (c) => ({ ...c, participant: { ...c.participant, selections: [...c.participant.selections].reverse() } })],
  ])('stays the same when only %s changes', (_what, change) => {
    expect(changed(change)).toBe(fingerprint);
  });
});

describe('news', () => {
  it('is any message whose fingerprint differs from the last one sent, or the first', () => {
    expect(isNews('change', fingerprint, undefined)).toBe(true);
    expect(isNews('change', fingerprint, 'f'.repeat(64))).toBe(true);
    expect(isNews('change', fingerprint, fingerprint)).toBe(false);
    expect(isNews('promoted', fingerprint, fingerprint)).toBe(false);
  });

  it('is always a reminder, which tells of nothing new', () => {
    expect(isNews('reminder', fingerprint, fingerprint)).toBe(true);
  });
});

describe('how recent a context is', () => {
  const at = (iso: string) => new Date(iso);
  const stamped = (signup: string, participant: string, slot: string, item: string): ParticipantMessageContext => ({
    ...base,
    signup: { ...base.signup, updatedAt: signup },
    participant: { ...base.participant, updatedAt: participant },
    slots: base.slots.map((s) => ({ ...s, updatedAt: slot })),
    items: base.items.map((i) => ({ ...i, updatedAt: item })),
  });

  it('is the latest updatedAt of the signup, the participant, its slots and its items', () => {
    const old = '2026-11-01T00:00:00.000Z';
    const late = '2026-11-20T08:30:00.000Z';
    expect(contextAsOf(stamped(late, old, old, old))).toEqual(at(late));
    expect(contextAsOf(stamped(old, late, old, old))).toEqual(at(late));
    expect(contextAsOf(stamped(old, old, late, old))).toEqual(at(late));
    expect(contextAsOf(stamped(old, old, old, late))).toEqual(at(late));
  });
});
