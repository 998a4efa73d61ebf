import type { DataSource } from 'typeorm';
import type { Principal, RegistrationResultView, SelectionInput, WaitlistSettingsInput } from '#libs/contracts';
import { DATA_SOURCE } from '#libs/runtime';
import { eventually } from '#libs/testing';
import { type AppHarness, caller, person, problemOf, startApp } from '../testing/fixtures.js';
import { OfferExpiry } from './offer-expiry.js';

let h: AppHarness;
let db: DataSource;

beforeAll(async () => {
  h = await startApp('signups_waitlist');
  db = h.app.app.get<DataSource>(DATA_SOURCE);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const AUTO: WaitlistSettingsInput = { enabled: true };
const OFFER: WaitlistSettingsInput = { enabled: true, mode: 'offer', offerMinutes: 30 };

async function shift(owner: Principal, capacity: number, waitlist: WaitlistSettingsInput = AUTO, maxParticipants?: number) {
  const { signup, slots } = await h.signup(owner, {
    signup: { waitlist, ...(maxParticipants !== undefined && { maxParticipants }) },
    slots: [{ title: 'Setup', capacity }],
  });
  return { signup, slot: slots[0]! };
}

function register(signupId: string, selections: SelectionInput[] = []): Promise<RegistrationResultView> {
  return h.stack.bus.request('signups.participants.register', { signupId, input: { ...person(), selections } });
}

const registration = (token: string) => h.stack.bus.request('signups.registrations.get', { token });
const cancel = (token: string) => h.stack.bus.request('signups.registrations.cancel', { token });
const accept = (token: string, entryId: string) => h.stack.bus.request('signups.registrations.accept', { token, entryId });
const leave = (token: string, entryId: string) => h.stack.bus.request('signups.registrations.leave', { token, entryId });
const waitlist = (owner: Principal, signupId: string) =>
  h.stack.bus.request('signups.waitlist.list', { principal: owner, signupId, query: {} });
const read = (owner: Principal, id: string) => h.stack.bus.request('signups.get', { principal: owner, id });

/** Ends every offer of the signup now, as if its time had run out, and runs a sweep. */
async function letOffersExpire(signupId: string): Promise<number> {
  await db.query(
    `UPDATE signups.waitlist_entries SET offer_expires_at = now() - interval '1 second' WHERE signup_id = $1 AND state = 'offered'`,
    [signupId],
  );
  return h.app.app.get(OfferExpiry).sweep();
}

/**
 * Offer mode, a slot of one place: its holder cancelled, so the place is offered to the first in
 * line (`offered`, with its entry), and `next` waits behind them.
 */
async function offeredPlace(owner: Principal) {
  const { signup, slot } = await shift(owner, 1, OFFER);
  const S = { type: 'slot', id: slot.id } as const;
  const holder = await register(signup.id, [S]);
  const offered = await register(signup.id, [S]);
  const next = await register(signup.id, [S]);
  await cancel(holder.confirmationToken!);
  const entry = (await registration(offered.confirmationToken!)).participant.waitlist[0]!;
  return {
    signup,
    slot,
    S,
    offered: offered.confirmationToken!,
    offeredId: offered.waitlisted[0]!.participantId,
    entry,
    next: next.confirmationToken!,
  };
}

describe('a full slot with the waitlist on (auto)', () => {
  it('puts the next registrations in line with their positions, and promotes the first when a place frees', async () => {
    const owner = caller();
    const { signup, slot } = await shift(owner, 1);
    const S = { type: 'slot', id: slot.id } as const;
    const first = await register(signup.id, [S]);
    const second = await register(signup.id, [S]);
    const third = await register(signup.id, [S]);
    expect(first.confirmed).toHaveLength(1);
    expect(second).toMatchObject({ success: true, confirmed: [], failed: [], waitlisted: [{ type: 'slot', id: slot.id, position: 1 }] });
    expect(third.waitlisted).toEqual([{ type: 'slot', id: slot.id, participantId: expect.any(String), position: 2 }]);
    const waiting = await registration(second.confirmationToken!);
    expect(waiting.participant).toMatchObject({
      status: 'waitlisted',
      selections: [],
      waitlist: [{ type: 'slot', targetId: slot.id, quantity: 1, state: 'waiting', position: 1, offeredAt: null, offerExpiresAt: null }],
    });
    expect((await read(owner, signup.id)).participantCount).toBe(3);

    await cancel(first.confirmationToken!);
    const promoted = await registration(second.confirmationToken!);
    expect(promoted.participant).toMatchObject({
      status: 'confirmed',
      selections: [{ type: 'slot', id: slot.id, quantity: 1 }],
      waitlist: [],
    });
    expect((await registration(third.confirmationToken!)).participant.waitlist[0]!.position).toBe(1);
    expect((await read(owner, signup.id)).slots![0]).toMatchObject({ taken: 1, capacity: 1 });
    await eventually(() => {
      expect(h.eventsFor(promoted.participant.id, 'participant.waitlisted')).toHaveLength(1);
      expect(h.eventsFor(promoted.participant.id, 'participant.promoted')).toHaveLength(1);
    });
    expect(h.eventsFor(promoted.participant.id, 'participant.promoted')[0]!.data).toMatchObject({ status: 'confirmed' });
    // The place was freed and given again in one transaction: the slot never showed as open.
    expect(h.eventsFor(slot.id, 'slot.opened')).toEqual([]);
  });

  it('keeps the answer of a signup without a waitlist: a selection that does not fit fails', async () => {
    const owner = caller();
    const { signup, slot } = await shift(owner, 1, { enabled: false });
    await register(signup.id, [{ type: 'slot', id: slot.id }]);
    const refused = await register(signup.id, [{ type: 'slot', id: slot.id }]);
    expect(refused).toEqual({ success: false, confirmed: [], failed: [expect.objectContaining({ reason: 'full' })], waitlisted: [] });
  });

  it('fails a selection that asks for more than the slot holds instead of putting it in a line it can never leave', async () => {
    const owner = caller();
    const { signup, slot } = await shift(owner, 2);
    const refused = await register(signup.id, [{ type: 'slot', id: slot.id, quantity: 3 }]);
    expect(refused).toMatchObject({ success: false, failed: [{ reason: 'full' }], waitlisted: [] });
    expect(refused.confirmationToken).toBeUndefined();
  });

  it('gives a freed place to the first entry that fits, never to one behind it', async () => {
    const owner = caller();
    const { signup, slot } = await shift(owner, 2);
    const S = { type: 'slot', id: slot.id } as const;
    const holder = await register(signup.id, [{ ...S, quantity: 2 }]);
    const big = await register(signup.id, [{ ...S, quantity: 2 }]);
    const small = await register(signup.id, [S]);
    const later = await register(signup.id, [S]);
    await h.stack.bus.request('signups.registrations.update', { token: holder.confirmationToken!, input: { selections: [S] } });
    expect((await registration(small.confirmationToken!)).participant.status).toBe('confirmed');
    expect((await registration(big.confirmationToken!)).participant.waitlist[0]).toMatchObject({ position: 1 });
    expect((await registration(later.confirmationToken!)).participant.waitlist[0]).toMatchObject({ position: 2 });
  });

  it('promotes in order when the capacity is raised', async () => {
    const owner = caller();
    const { signup, slot } = await shift(owner, 1);
    const S = { type: 'slot', id: slot.id } as const;
    await register(signup.id, [S]);
    const waiting = [await register(signup.id, [S]), await register(signup.id, [S]), await register(signup.id, [S])];
    const raised = await h.stack.bus.request('signups.slots.update', {
      principal: owner,
      signupId: signup.id,
      id: slot.id,
      input: { capacity: 3 },
    });
    expect(raised).toMatchObject({ capacity: 3, taken: 3 });
    const statuses = await Promise.all(waiting.map(async (r) => (await registration(r.confirmationToken!)).participant.status));
    expect(statuses).toEqual(['confirmed', 'confirmed', 'waitlisted']);
  });

  it('refuses to delete a slot someone waits for', async () => {
    const owner = caller();
    const { signup, slot } = await shift(owner, 1, AUTO, 1);
    await register(signup.id);
    await register(signup.id, [{ type: 'slot', id: slot.id }]);
    const problem = await problemOf(h.stack.bus.request('signups.slots.delete', { principal: owner, signupId: signup.id, id: slot.id }));
    expect(problem).toMatchObject({ code: 'conflict', detail: expect.stringContaining('1 person in its waitlist') });
  });
});

describe("the signup's own line (maxParticipants)", () => {
  it('waits uncounted when the signup is full, and is admitted with its selections when a place frees', async () => {
    const owner = caller();
    const { signup, slot } = await shift(owner, 5, AUTO, 1);
    const first = await register(signup.id);
    const second = await register(signup.id, [{ type: 'slot', id: slot.id }]);
    expect(second.waitlisted).toEqual([
      { type: 'signup', id: signup.id, participantId: expect.any(String), position: 1 },
      { type: 'slot', id: slot.id, participantId: expect.any(String), position: 1 },
    ]);
    expect(await read(owner, signup.id)).toMatchObject({ participantCount: 1, slots: [{ taken: 0 }] });
    const problem = await problemOf(
      h.stack.bus.request('signups.registrations.update', { token: second.confirmationToken!, input: { selections: [] } }),
    );
    expect(problem.code).toBe('conflict');

    await cancel(first.confirmationToken!);
    const admitted = await registration(second.confirmationToken!);
    expect(admitted.participant).toMatchObject({ status: 'confirmed', selections: [{ type: 'slot', id: slot.id }], waitlist: [] });
    expect(await read(owner, signup.id)).toMatchObject({ participantCount: 1, slots: [{ taken: 1 }] });
  });

  it('admits the first in line when maxParticipants is raised or lifted', async () => {
    const owner = caller();
    const { signup } = await shift(owner, 5, AUTO, 1);
    await register(signup.id);
    const waiting = [await register(signup.id), await register(signup.id), await register(signup.id)];
    await h.stack.bus.request('signups.update', { principal: owner, id: signup.id, input: { maxParticipants: 2 } });
    const status = async () => Promise.all(waiting.map(async (r) => (await registration(r.confirmationToken!)).participant.status));
    expect(await status()).toEqual(['confirmed', 'waitlisted', 'waitlisted']);
    const lifted = await h.stack.bus.request('signups.update', { principal: owner, id: signup.id, input: { maxParticipants: null } });
    expect(lifted.participantCount).toBe(4);
    expect(await status()).toEqual(['confirmed', 'confirmed', 'confirmed']);
  });

  it('is refused as before when the waitlist is off', async () => {
    const owner = caller();
    const { signup } = await shift(owner, 5, { enabled: false }, 1);
    await register(signup.id);
    expect((await problemOf(register(signup.id))).code).toBe('bad_request');
  });
});

describe('offers (offer mode)', () => {
  it('holds a freed place for the first in line until it accepts; accepting twice answers the same', async () => {
    const owner = caller();
    const { signup, slot } = await shift(owner, 1, OFFER);
    const S = { type: 'slot', id: slot.id } as const;
    const holder = await register(signup.id, [S]);
    const next = await register(signup.id, [S]);
    await cancel(holder.confirmationToken!);
    const offered = (await registration(next.confirmationToken!)).participant;
    expect(offered).toMatchObject({ status: 'offered', waitlist: [{ state: 'offered', position: null }] });
    const entry = offered.waitlist[0]!;
    const held = new Date(entry.offerExpiresAt!).getTime() - new Date(entry.offeredAt!).getTime();
    expect(held).toBe(30 * 60_000);
    expect((await read(owner, signup.id)).slots![0]).toMatchObject({ taken: 1 });
    const late = await register(signup.id, [S]);
    expect(late.waitlisted).toEqual([expect.objectContaining({ position: 1 })]);

    const accepted = await accept(next.confirmationToken!, entry.id);
    expect(accepted.participant).toMatchObject({
      status: 'confirmed',
      selections: [{ type: 'slot', id: slot.id, quantity: 1 }],
      waitlist: [],
    });
    expect((await accept(next.confirmationToken!, entry.id)).participant).toEqual(accepted.participant);
    expect((await read(owner, signup.id)).slots![0]).toMatchObject({ taken: 1 });
    await eventually(() => {
      expect(h.eventsFor(offered.id, 'participant.offered')).toHaveLength(1);
      expect(h.eventsFor(offered.id, 'participant.promoted')).toHaveLength(1);
    });
  });

  it('passes an offer on when it expires, and refuses a late acceptance with 409', async () => {
    const owner = caller();
    const { signup, offered, offeredId, entry, next } = await offeredPlace(owner);
    expect(await letOffersExpire(signup.id)).toBe(1);
    expect((await registration(offered)).participant).toMatchObject({ status: 'cancelled', waitlist: [] });
    expect((await registration(next)).participant.status).toBe('offered');
    const problem = await problemOf(accept(offered, entry.id));
    expect(problem).toMatchObject({ code: 'conflict', detail: expect.stringContaining('expired') });
    expect((await read(owner, signup.id)).slots![0]).toMatchObject({ taken: 1 });
    await eventually(() => {
      expect(h.eventsFor(offeredId, 'participant.offer_expired')).toHaveLength(1);
      expect(h.eventsFor(offeredId, 'participant.canceled')).toHaveLength(1);
    });
  });

  it('refuses an acceptance past the offer time even before the sweep passes it on', async () => {
    const { offered, entry } = await offeredPlace(caller());
    await db.query(`UPDATE signups.waitlist_entries SET offer_expires_at = now() - interval '1 second' WHERE id = $1`, [entry.id]);
    expect((await problemOf(accept(offered, entry.id))).code).toBe('conflict');
    expect((await registration(offered)).participant.status).toBe('offered');
  });

  it('passes a declined offer to the next in line, and a second decline changes nothing', async () => {
    const owner = caller();
    const { signup, offered, entry, next } = await offeredPlace(owner);
    const declined = await leave(offered, entry.id);
    expect(declined.participant.status).toBe('cancelled');
    expect((await leave(offered, entry.id)).participant).toEqual(declined.participant);
    expect((await registration(next)).participant.status).toBe('offered');
    expect((await read(owner, signup.id)).slots![0]).toMatchObject({ taken: 1 });
  });

  it('lets an offer made before the signup closed be accepted after, until the event starts', async () => {
    const owner = caller();
    const { signup, offered, entry } = await offeredPlace(owner);
    await h.stack.bus.request('signups.close', { principal: owner, id: signup.id });
    expect((await accept(offered, entry.id)).participant.status).toBe('confirmed');
    expect((await problemOf(cancel(offered))).code).toBe('bad_request');
  });

  it('ends in exactly one outcome when a cancellation races an acceptance', async () => {
    for (let round = 0; round < 5; round++) {
      const owner = caller();
      const { signup, offered, entry, next } = await offeredPlace(owner);
      const [accepting, cancelling] = await Promise.allSettled([accept(offered, entry.id), cancel(offered)]);
      expect(cancelling.status).toBe('fulfilled');
      expect((await registration(offered)).participant.status).toBe('cancelled');
      // Accepted first (then cancelled: the place goes on), or cancelled first (the acceptance is refused).
      if (accepting.status === 'rejected') expect((await problemOf(Promise.reject(accepting.reason))).code).toBe('conflict');
      expect((await registration(next)).participant.status).toBe('offered');
      expect((await read(owner, signup.id)).slots![0]).toMatchObject({ taken: 1 });
    }
  });
});

describe('once the event has started', () => {
  it('stands the lines still: a place the organizer frees goes to nobody, and no move by token is taken', async () => {
    const owner = caller();
    const { signup, slot } = await shift(owner, 1);
    const S = { type: 'slot', id: slot.id } as const;
    const holder = await register(signup.id, [S]);
    const waiting = await register(signup.id, [S]);
    await db.query(`UPDATE signups.signups SET event_date = now() - interval '1 hour' WHERE id = $1`, [signup.id]);
    const removed = holder.confirmed[0]!.participantId;
    await h.stack.bus.request('signups.participants.delete', { principal: owner, signupId: signup.id, id: removed });
    const still = (await registration(waiting.confirmationToken!)).participant;
    expect(still.status).toBe('waitlisted');
    expect((await read(owner, signup.id)).slots![0]).toMatchObject({ taken: 0 });
    expect((await problemOf(leave(waiting.confirmationToken!, still.waitlist[0]!.id))).code).toBe('bad_request');
  });
});

describe("the organizer's view and moves of the lines", () => {
  it('lists the lines in order with positions and who waits, promotes by hand when a place is free, and removes from a line', async () => {
    const owner = caller();
    const { signup, slot } = await shift(owner, 1, OFFER);
    const S = { type: 'slot', id: slot.id } as const;
    await register(signup.id, [S]);
    const a = await register(signup.id, [S]);
    const b = await register(signup.id, [S]);
    const c = await register(signup.id, [S]);
    const page = await waitlist(owner, signup.id);
    expect(page.data.map((e) => [e.participantId, e.position, e.type, e.targetId])).toEqual([
      [a.waitlisted[0]!.participantId, 1, 'slot', slot.id],
      [b.waitlisted[0]!.participantId, 2, 'slot', slot.id],
      [c.waitlisted[0]!.participantId, 3, 'slot', slot.id],
    ]);
    expect(page.data[0]).toMatchObject({ name: expect.stringMatching(/^Person /), email: expect.stringContaining('@'), state: 'waiting' });

    const full = await problemOf(
      h.stack.bus.request('signups.waitlist.promote', { principal: owner, signupId: signup.id, id: page.data[1]!.id }),
    );
    expect(full.code).toBe('conflict');
    const removed = await h.stack.bus.request('signups.waitlist.remove', { principal: owner, signupId: signup.id, id: page.data[0]!.id });
    expect(removed).toMatchObject({ id: a.waitlisted[0]!.participantId, status: 'cancelled', waitlist: [] });
    expect((await waitlist(owner, signup.id)).data.map((e) => e.position)).toEqual([1, 2]);

    await h.stack.bus.request('signups.slots.update', { principal: owner, signupId: signup.id, id: slot.id, input: { capacity: 2 } });
    const offeredEntry = (await waitlist(owner, signup.id)).data[0]!;
    expect(offeredEntry).toMatchObject({ participantId: b.waitlisted[0]!.participantId, state: 'offered', position: null });
    const promoted = await h.stack.bus.request('signups.waitlist.promote', { principal: owner, signupId: signup.id, id: offeredEntry.id });
    expect(promoted).toMatchObject({ status: 'confirmed', selections: [{ type: 'slot', id: slot.id }] });

    const other = await problemOf(h.stack.bus.request('signups.waitlist.list', { principal: caller(), signupId: signup.id, query: {} }));
    expect(other.code).toBe('forbidden');
  });

  it('filters participants by status, and leaves the cancelled out of the list by default', async () => {
    const owner = caller();
    const { signup, slot } = await shift(owner, 1);
    const S = { type: 'slot', id: slot.id } as const;
    const holder = await register(signup.id, [S]);
    await register(signup.id, [S]);
    await register(signup.id, [S]);
    await cancel(holder.confirmationToken!);
    const list = (status?: string) =>
      h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: status ? { status } : {} } as never);
    expect((await list()).data.map((p) => p.status).sort()).toEqual(['confirmed', 'waitlisted']);
    expect((await list('cancelled')).data.map((p) => p.id)).toEqual([holder.confirmed[0]!.participantId]);
    expect((await list('waitlisted')).data).toHaveLength(1);
    expect((await problemOf(list('gone'))).code).toBe('validation_failed');
  });
});
