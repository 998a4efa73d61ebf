import { newId, newPrefixedId } from '#libs/contracts';
import { type AppHarness, caller, daysFromNow, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_public');
});

afterAll(async () => {
  await h?.close();
});

function publicGet(slugOrId: string) {
  return h.stack.bus.request('signups.public.get', { slugOrId });
}

describe('the public view of a signup', () => {
  it('shows a published signup by id and by slug with what remains, and never who signed up', async () => {
    const { signup, slots, items } = await h.signup(caller(), {
      signup: { description: 'Bring a dish', location: 'Park', maxParticipants: 10, requiresPhone: true, signupCloseDate: daysFromNow(20) },
      slots: [{ title: 'Setup', capacity: 2 }],
      items: [{ name: 'Salad', quantityNeeded: 3 }],
    });
    await h.stack.bus.request('signups.participants.register', {
      signupId: signup.id,
      input: { name: 'Secret Name', email: 'secret@example.com', phone: '+14155550123', selections: [{ type: 'slot', id: slots[0]!.id }] },
    });
    const view = await publicGet(signup.slug);
    expect(view).toEqual({
      id: signup.id,
      slug: signup.slug,
      title: signup.title,
      description: 'Bring a dish',
      status: 'published',
      eventDate: signup.eventDate,
      timeZone: 'UTC',
      location: 'Park',
      requiresPhone: true,
      signupCloseDate: signup.signupCloseDate,
      waitlist: { enabled: false, mode: 'auto', offerMinutes: 1440 },
      acceptingRegistrations: true,
      spotsRemaining: 9,
      publicUrl: `https://api.example.test/s/${signup.slug}`,
      livemode: false,
      updatedAt: signup.updatedAt,
      questions: [],
      // A registration moves what is taken of the slot, and with it its updatedAt.
      slots: [{ ...slots[0], taken: 1, remaining: 1, updatedAt: expect.any(String) }],
      items,
    });
    expect(await publicGet(signup.id)).toEqual(view);
    expect(await publicGet(signup.id.toUpperCase())).toEqual(view);
    const text = JSON.stringify(view);
    for (const secret of ['Secret Name', 'secret@example.com', '+14155550123', 'organizationId', 'participantCount'])
      expect(text).not.toContain(secret);
  });

  it('answers null spotsRemaining without maxParticipants, and 0 when it is reached', async () => {
    const open = await h.signup(caller());
    expect((await publicGet(open.signup.id)).spotsRemaining).toBeNull();
    const small = await h.signup(caller(), { signup: { maxParticipants: 1 } });
    await h.stack.bus.request('signups.participants.register', { signupId: small.signup.id, input: { ...person(), selections: [] } });
    expect(await publicGet(small.signup.id)).toMatchObject({ spotsRemaining: 0, acceptingRegistrations: false });
  });

  it('shows a closed signup as not accepting registrations', async () => {
    const { signup } = await h.signup(caller(), { status: 'closed' });
    expect(await publicGet(signup.slug)).toMatchObject({ status: 'closed', acceptingRegistrations: false });
  });

  it('shows a signup past its event or its signupCloseDate as not accepting registrations', async () => {
    const past = await h.signup(caller(), { signup: { eventDate: daysFromNow(-1) } });
    expect((await publicGet(past.signup.id)).acceptingRegistrations).toBe(false);
    const cutOff = await h.signup(caller(), { signup: { signupCloseDate: daysFromNow(-1) } });
    expect((await publicGet(cutOff.signup.id)).acceptingRegistrations).toBe(false);
  });

  it('shows sandbox and live signups alike', async () => {
    const organizationId = newPrefixedId('org');
    const live = await h.signup(caller({ organizationId, livemode: true }));
    expect((await publicGet(live.signup.slug)).id).toBe(live.signup.id);
  });

  it('answers not_found for a draft, exactly as for a signup that does not exist', async () => {
    const { signup } = await h.signup(caller(), { status: 'draft' });
    const draft = await problemOf(publicGet(signup.slug));
    expect(draft.code).toBe('not_found');
    expect((await problemOf(publicGet(signup.id))).toWire()).toEqual(draft.toWire());
    expect((await problemOf(publicGet(newId()))).toWire()).toEqual(draft.toWire());
    expect((await problemOf(publicGet('no-such-signup-abc123'))).toWire()).toEqual(draft.toWire());
    expect((await problemOf(publicGet('../../etc/passwd'))).toWire()).toEqual(draft.toWire());
  });
});
