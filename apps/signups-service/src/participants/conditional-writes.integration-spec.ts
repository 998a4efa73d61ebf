import { etagOf, type ParticipantView, type Principal } from '#libs/contracts';
import { type AppHarness, caller, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('participants_conditional');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const setup = {
  slots: [
    { title: 'Setup', capacity: 3 },
    { title: 'Cleanup', capacity: 3 },
  ],
};

/** A published signup of the principal's with two slots and one participant holding the first: its id and confirmation token. */
async function registered(principal: Principal) {
  const { signup, slots } = await h.signup(principal, setup);
  const result = await h.stack.bus.request('signups.participants.register', {
    signupId: signup.id,
    input: { ...person(), selections: [{ type: 'slot', id: slots[0]!.id }] },
  });
  return { signupId: signup.id, slots, id: result.confirmed[0]!.participantId, token: result.confirmationToken! };
}

const getParticipant = (principal: Principal, signupId: string, id: string) =>
  h.stack.bus.request('signups.participants.get', { principal, signupId, id });

/** The tag GET /signups/{id}/participants/{participantId} gives. */
async function participantTag(principal: Principal, signupId: string, id: string): Promise<string> {
  return etagOf(await getParticipant(principal, signupId, id));
}

/** The tag GET /registrations/{token} gives. */
async function registrationTag(token: string): Promise<string> {
  return etagOf(await h.stack.bus.request('signups.registrations.get', { token }));
}

/** Of settled writes: how many applied; every refused one must be precondition_failed. */
async function appliedOnce(outcomes: PromiseSettledResult<unknown>[]): Promise<void> {
  expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
  for (const refused of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
    expect((await problemOf(Promise.reject(refused.reason))).code).toBe('precondition_failed');
  }
}

describe('signups.participants.get', () => {
  it('answers one participant as the list shows it, cancelled ones included', async () => {
    const owner = caller();
    const { signupId, id } = await registered(owner);
    const { data } = await h.stack.bus.request('signups.participants.list', { principal: owner, signupId, query: {} });
    expect(await getParticipant(owner, signupId, id)).toEqual(data.find((p) => p.id === id));
    await h.stack.bus.request('signups.participants.delete', { principal: owner, signupId, id });
    expect(await getParticipant(owner, signupId, id)).toMatchObject({ id, status: 'cancelled' });
  });

  it("refuses as the list does: 403 for another organization's published signup, 404 for an unknown signup or participant", async () => {
    const owner = caller();
    const { signupId, id } = await registered(owner);
    const other = await registered(owner);
    expect((await problemOf(getParticipant(caller(), signupId, id))).code).toBe('forbidden');
    expect(
      (await problemOf(getParticipant(caller({ organizationId: owner.organizationId, livemode: !owner.livemode }), signupId, id))).code,
    ).toBe('not_found');
    expect((await problemOf(getParticipant(owner, signupId, other.id))).code).toBe('not_found');
    expect((await problemOf(getParticipant(owner, other.signupId, '00000000-0000-4000-8000-000000000000'))).code).toBe('not_found');
    expect((await problemOf(getParticipant(owner, signupId, 'not-a-uuid'))).code).toBe('validation_failed');
  });
});

describe("If-Match on the organizer's writes of a participant", () => {
  it('applies an edit with the current tag and answers the participant as signups.participants.get does', async () => {
    const owner = caller();
    const { signupId, id } = await registered(owner);
    const ifMatch = await participantTag(owner, signupId, id);
    const edited = await h.stack.bus.request('signups.participants.update', {
      principal: owner,
      signupId,
      id,
      ifMatch,
      input: { name: 'Renamed' },
    });
    expect(edited.name).toBe('Renamed');
    expect(etagOf(edited)).toBe(await participantTag(owner, signupId, id));
  });

  it('refuses an edit, a cancellation and attendance changes with a stale tag with precondition_failed, changing nothing', async () => {
    const owner = caller();
    const { signupId, id } = await registered(owner);
    const stale = await participantTag(owner, signupId, id);
    await h.stack.bus.request('signups.participants.update', { principal: owner, signupId, id, input: { name: 'Another editor' } });
    const before = await getParticipant(owner, signupId, id);
    const ref = { principal: owner, signupId, id, ifMatch: stale };
    for (const write of [
      h.stack.bus.request('signups.participants.update', { ...ref, input: { name: 'Mine' } }),
      h.stack.bus.request('signups.participants.delete', ref),
      h.stack.bus.request('signups.attendance.undo_check_in', ref),
      h.stack.bus.request('signups.attendance.undo_no_show', ref),
      h.stack.bus.request('signups.attendance.update', { ...ref, input: { hoursServed: 2 } }),
    ]) {
      expect((await problemOf(write)).code).toBe('precondition_failed');
    }
    expect(await getParticipant(owner, signupId, id)).toEqual(before);
  });

  it('sees an attendance change in the tag, and checks the tag of an attendance change', async () => {
    const owner = caller();
    const { signupId, id } = await registered(owner);
    const before = await participantTag(owner, signupId, id);
    const checkedIn = await h.stack.bus.request('signups.attendance.check_in', {
      principal: owner,
      signupId,
      id,
      input: { hoursServed: 1 },
    });
    expect(
      (await problemOf(h.stack.bus.request('signups.participants.delete', { principal: owner, signupId, id, ifMatch: before }))).code,
    ).toBe('precondition_failed');
    const hours = await h.stack.bus.request('signups.attendance.update', {
      principal: owner,
      signupId,
      id,
      ifMatch: etagOf(checkedIn),
      input: { hoursServed: 3 },
    });
    expect(hours.hoursServed).toBe(3);
    expect(etagOf(hours)).toBe(await participantTag(owner, signupId, id));
  });

  it('takes * as "exists" and leaves an unknown participant to the write\'s own 404', async () => {
    const owner = caller();
    const { signupId, id } = await registered(owner);
    const cancelled = await h.stack.bus.request('signups.participants.delete', { principal: owner, signupId, id, ifMatch: '*' });
    expect(cancelled.status).toBe('cancelled');
    const unknown = { principal: owner, signupId, id: '00000000-0000-4000-8000-000000000000', ifMatch: '"x"' };
    expect((await problemOf(h.stack.bus.request('signups.participants.delete', unknown))).code).toBe('not_found');
    const stranger = { principal: caller(), signupId, id, ifMatch: '"x"' };
    expect((await problemOf(h.stack.bus.request('signups.participants.update', { ...stranger, input: { name: 'No' } }))).code).toBe(
      'forbidden',
    );
  });

  it('lets exactly one of parallel edits and cancellations sent with the same tag apply', async () => {
    const owner = caller();
    const { signupId, id } = await registered(owner);
    const ifMatch = await participantTag(owner, signupId, id);
    const ref = { principal: owner, signupId, id, ifMatch };
    const outcomes = await Promise.allSettled([
      ...['A', 'B', 'C', 'D'].map((name) => h.stack.bus.request('signups.participants.update', { ...ref, input: { name } })),
      h.stack.bus.request('signups.participants.delete', ref),
    ]);
    await appliedOnce(outcomes);
    const applied = (outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<ParticipantView>).value;
    expect(await getParticipant(owner, signupId, id)).toEqual(applied);
  });
});

describe('If-Match on the writes of a registration by its confirmation token', () => {
  it('applies an edit with the current tag and answers the registration as signups.registrations.get does', async () => {
    const { token } = await registered(caller());
    const edited = await h.stack.bus.request('signups.registrations.update', {
      token,
      ifMatch: await registrationTag(token),
      input: { name: 'Mine' },
    });
    expect(edited.participant.name).toBe('Mine');
    expect(etagOf(edited)).toBe(await registrationTag(token));
  });

  it('refuses an edit and a cancellation with a stale tag with precondition_failed, changing nothing', async () => {
    const owner = caller();
    const { signupId, id, token } = await registered(owner);
    const stale = await registrationTag(token);
    await h.stack.bus.request('signups.participants.update', { principal: owner, signupId, id, input: { name: 'Organizer edit' } });
    const before = await h.stack.bus.request('signups.registrations.get', { token });
    for (const write of [
      h.stack.bus.request('signups.registrations.update', { token, ifMatch: stale, input: { name: 'Mine' } }),
      h.stack.bus.request('signups.registrations.cancel', { token, ifMatch: stale }),
    ]) {
      expect((await problemOf(write)).code).toBe('precondition_failed');
    }
    expect(await h.stack.bus.request('signups.registrations.get', { token })).toEqual(before);
  });

  it("sees another participant's registration in the tag (the registration shows what remains of each slot)", async () => {
    const { signupId, slots, token } = await registered(caller());
    const before = await registrationTag(token);
    await h.stack.bus.request('signups.participants.register', {
      signupId,
      input: { ...person(), selections: [{ type: 'slot', id: slots[0]!.id }] },
    });
    const problem = await problemOf(h.stack.bus.request('signups.registrations.cancel', { token, ifMatch: before }));
    expect(problem.code).toBe('precondition_failed');
    expect((await h.stack.bus.request('signups.registrations.cancel', { token, ifMatch: '*' })).participant.status).toBe('cancelled');
  });

  it('lets exactly one of parallel changes sent with the same tag apply', async () => {
    const { slots, token } = await registered(caller());
    const ifMatch = await registrationTag(token);
    const outcomes = await Promise.allSettled([
      h.stack.bus.request('signups.registrations.update', { token, ifMatch, input: { name: 'A' } }),
      h.stack.bus.request('signups.registrations.update', { token, ifMatch, input: { selections: [{ type: 'slot', id: slots[1]!.id }] } }),
      h.stack.bus.request('signups.registrations.update', { token, ifMatch, input: { name: 'C' } }),
      h.stack.bus.request('signups.registrations.cancel', { token, ifMatch }),
    ]);
    await appliedOnce(outcomes);
    expect(await registrationTag(token)).not.toBe(ifMatch);
  });

  it('answers an unknown token not_found whatever the tag, and a malformed If-Match validation_failed', async () => {
    const { token } = await registered(caller());
    expect((await problemOf(h.stack.bus.request('signups.registrations.cancel', { token: 'nope', ifMatch: '"x"' }))).code).toBe(
      'not_found',
    );
    const problem = await problemOf(h.stack.bus.request('signups.registrations.cancel', { token, ifMatch: 'no tag' }));
    expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'If-Match' }] });
  });
});

describe('If-Match on the revocation of the calendar feed', () => {
  const feedTag = async (principal: Principal) => etagOf(await h.stack.bus.request('signups.calendar_feed.get', { principal }));

  it('revokes with the current tag, and refuses a tag taken before a rotation with precondition_failed, revoking nothing', async () => {
    const owner = caller();
    await h.stack.bus.request('signups.calendar_feed.create', { principal: owner });
    const current = await feedTag(owner);
    await h.stack.bus.request('signups.calendar_feed.revoke', { principal: owner, ifMatch: current });
    expect(await h.stack.bus.request('signups.calendar_feed.get', { principal: owner })).toMatchObject({ exists: false });

    const none = await feedTag(owner);
    await h.stack.bus.request('signups.calendar_feed.create', { principal: owner });
    const problem = await problemOf(h.stack.bus.request('signups.calendar_feed.revoke', { principal: owner, ifMatch: none }));
    expect(problem.code).toBe('precondition_failed');
    expect(await h.stack.bus.request('signups.calendar_feed.get', { principal: owner })).toMatchObject({ exists: true });
  });

  it('lets exactly one of parallel revocations sent with the same tag apply', async () => {
    const owner = caller();
    await h.stack.bus.request('signups.calendar_feed.create', { principal: owner });
    const ifMatch = await feedTag(owner);
    const outcomes = await Promise.allSettled([
      h.stack.bus.request('signups.calendar_feed.revoke', { principal: owner, ifMatch }),
      h.stack.bus.request('signups.calendar_feed.revoke', { principal: owner, ifMatch }),
      h.stack.bus.request('signups.calendar_feed.revoke', { principal: owner, ifMatch }),
    ]);
    await appliedOnce(outcomes);
  });
});

describe('If-Match on leaving a waitlist', () => {
  /** A full one-place slot with the waitlist on: the participant waiting in its line, with its entry, token and signup. */
  async function waiting(owner: Principal) {
    const { signup, slots } = await h.signup(owner, { signup: { waitlist: { enabled: true } }, slots: [{ title: 'Setup', capacity: 1 }] });
    const selections = [{ type: 'slot' as const, id: slots[0]!.id }];
    await h.stack.bus.request('signups.participants.register', { signupId: signup.id, input: { ...person(), selections } });
    const result = await h.stack.bus.request('signups.participants.register', { signupId: signup.id, input: { ...person(), selections } });
    const token = result.confirmationToken!;
    const participantId = result.waitlisted[0]!.participantId;
    const entryId = (await h.stack.bus.request('signups.registrations.get', { token })).participant.waitlist[0]!.id;
    return { signupId: signup.id, selections, token, participantId, entryId };
  }

  it("checks the organizer's removal of an entry against its participant's tag", async () => {
    const owner = caller();
    const { signupId, participantId, entryId } = await waiting(owner);
    const stale = await participantTag(owner, signupId, participantId);
    await h.stack.bus.request('signups.participants.update', { principal: owner, signupId, id: participantId, input: { name: 'Edited' } });
    const remove = (ifMatch: string) =>
      h.stack.bus.request('signups.waitlist.remove', { principal: owner, signupId, id: entryId, ifMatch });
    expect((await problemOf(remove(stale))).code).toBe('precondition_failed');
    expect((await getParticipant(owner, signupId, participantId)).waitlist).toHaveLength(1);
    expect((await remove(await participantTag(owner, signupId, participantId))).waitlist).toEqual([]);
  });

  it("checks a participant's leaving a line against the registration's tag; of parallel ones with one tag, one applies", async () => {
    const owner = caller();
    const { token, entryId } = await waiting(owner);
    const stale = await registrationTag(token);
    await h.stack.bus.request('signups.registrations.update', { token, input: { name: 'Edited' } });
    const leave = (ifMatch: string) => h.stack.bus.request('signups.registrations.leave', { token, entryId, ifMatch });
    expect((await problemOf(leave(stale))).code).toBe('precondition_failed');
    expect((await h.stack.bus.request('signups.registrations.get', { token })).participant.waitlist).toHaveLength(1);
    const ifMatch = await registrationTag(token);
    await appliedOnce(await Promise.allSettled([leave(ifMatch), leave(ifMatch), leave(ifMatch)]));
    expect((await h.stack.bus.request('signups.registrations.get', { token })).participant.waitlist).toEqual([]);
  });
});
