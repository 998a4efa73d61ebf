import { etagOf } from '#libs/contracts';
import { type AppHarness, caller, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_conditional');
});

afterAll(async () => {
  await h?.close();
});

const setup = { status: 'draft' as const, slots: [{ title: 'Setup', capacity: 2 }], items: [{ name: 'Salad', quantityNeeded: 3 }] };

/** The tag a GET of the signup gives: etagOf the view signups.get answers. */
async function tagOf(principal: ReturnType<typeof caller>, id: string): Promise<string> {
  return etagOf(await h.stack.bus.request('signups.get', { principal, id }));
}

describe('If-Match on writes of a signup', () => {
  it('applies an edit with the current tag and answers the signup as signups.get does, so its tag is the next one', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal, setup);
    const edited = await h.stack.bus.request('signups.update', {
      principal,
      id: signup.id,
      ifMatch: await tagOf(principal, signup.id),
      input: { title: 'Renamed' },
    });
    expect(edited).toMatchObject({ title: 'Renamed', slots: [{ title: 'Setup' }], items: [{ name: 'Salad' }] });
    expect(etagOf(edited)).toBe(await tagOf(principal, signup.id));
  });

  it('refuses an edit and a deletion with a stale tag with precondition_failed, changing nothing', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal, setup);
    const stale = await tagOf(principal, signup.id);
    await h.stack.bus.request('signups.update', { principal, id: signup.id, input: { title: 'Another editor' } });
    const before = await h.stack.bus.request('signups.get', { principal, id: signup.id });
    for (const write of [
      h.stack.bus.request('signups.update', { principal, id: signup.id, ifMatch: stale, input: { title: 'Mine' } }),
      h.stack.bus.request('signups.delete', { principal, id: signup.id, ifMatch: stale }),
    ]) {
      expect((await problemOf(write)).code).toBe('precondition_failed');
    }
    expect(await h.stack.bus.request('signups.get', { principal, id: signup.id })).toEqual(before);
  });

  it('checks the tag even for an empty edit', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal, setup);
    const problem = await problemOf(h.stack.bus.request('signups.update', { principal, id: signup.id, ifMatch: '"stale"', input: {} }));
    expect(problem.code).toBe('precondition_failed');
  });

  it('sees a registration in the tag (the view holds participantCount and what remains of each slot)', async () => {
    const principal = caller();
    const { signup, slots } = await h.signup(principal, { ...setup, status: 'published' });
    const before = await tagOf(principal, signup.id);
    await h.stack.bus.request('signups.participants.register', {
      signupId: signup.id,
      input: { ...person(), selections: [{ type: 'slot', id: slots[0]!.id }] },
    });
    const problem = await problemOf(
      h.stack.bus.request('signups.update', { principal, id: signup.id, ifMatch: before, input: { title: 'Late' } }),
    );
    expect(problem.code).toBe('precondition_failed');
  });

  it('lets exactly one of parallel edits sent with the same tag apply; the others are precondition_failed', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal, setup);
    const ifMatch = await tagOf(principal, signup.id);
    const outcomes = await Promise.allSettled(
      ['A', 'B', 'C', 'D', 'E'].map((title) =>
        h.stack.bus.request('signups.update', { principal, id: signup.id, ifMatch, input: { title } }),
      ),
    );
    const applied = outcomes.filter((o) => o.status === 'fulfilled');
    expect(applied).toHaveLength(1);
    for (const refused of outcomes.filter((o) => o.status === 'rejected')) {
      expect((await problemOf(Promise.reject((refused as PromiseRejectedResult).reason))).code).toBe('precondition_failed');
    }
    const { title } = await h.stack.bus.request('signups.get', { principal, id: signup.id });
    expect(title).toBe((applied[0] as PromiseFulfilledResult<{ title: string }>).value.title);
  });

  it("lets exactly one of parallel slot and item edits sent with the signup's tag apply", async () => {
    const principal = caller();
    const { signup, slots, items } = await h.signup(principal, setup);
    const ifMatch = await tagOf(principal, signup.id);
    const outcomes = await Promise.allSettled([
      h.stack.bus.request('signups.slots.update', { principal, signupId: signup.id, id: slots[0]!.id, ifMatch, input: { capacity: 5 } }),
      h.stack.bus.request('signups.items.update', {
        principal,
        signupId: signup.id,
        id: items[0]!.id,
        ifMatch,
        input: { quantityNeeded: 7 },
      }),
      h.stack.bus.request('signups.slots.delete', { principal, signupId: signup.id, id: slots[0]!.id, ifMatch }),
      h.stack.bus.request('signups.items.delete', { principal, signupId: signup.id, id: items[0]!.id, ifMatch }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(await tagOf(principal, signup.id)).not.toBe(ifMatch);
  });

  it("leaves another organization's signup to the write's own refusal, whatever the tag", async () => {
    const { signup } = await h.signup(caller(), setup);
    const problem = await problemOf(
      h.stack.bus.request('signups.update', { principal: caller(), id: signup.id, ifMatch: '"x"', input: { title: 'No' } }),
    );
    expect(problem.code).toBe('not_found');
  });

  it('refuses a malformed If-Match with validation_failed on the header', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal, setup);
    const problem = await problemOf(h.stack.bus.request('signups.delete', { principal, id: signup.id, ifMatch: 'no tag' }));
    expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'If-Match' }] });
  });
});
