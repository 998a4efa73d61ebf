import { type ParticipantExportPage, type Principal, type RegistrationInput } from '#libs/contracts';
import { type AppHarness, caller, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_exports');
});

afterAll(async () => {
  await h?.close();
});

function register(signupId: string, input: Partial<RegistrationInput> = {}) {
  return h.stack.bus.request('signups.participants.register', { signupId, input: { ...person(), selections: [], ...input } });
}

function page(principal: Principal, signupId: string, query: { limit?: number; cursor?: string } = {}) {
  return h.stack.bus.request('signups.participants.export', { principal, signupId, query });
}

/** Every page of an export, reading the next only after `between` ran. */
async function allPages(principal: Principal, signupId: string, limit?: number, between: () => Promise<unknown> = async () => undefined) {
  const pages: ParticipantExportPage[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(principal, signupId, { ...(limit && { limit }), ...(cursor && { cursor }) });
    pages.push(next);
    cursor = next.nextCursor ?? undefined;
    await between();
  } while (cursor);
  return pages;
}

describe('exporting participants page by page', () => {
  it('reads 45 participants registered at once oldest first in pages, none twice and none missing, cancelled ones included', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    await Promise.all(Array.from({ length: 45 }, () => register(signup.id)));
    const listed = await h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: { limit: 1 } });
    await h.stack.bus.request('signups.participants.delete', { principal: owner, signupId: signup.id, id: listed.data[0]!.id });
    const pages = await allPages(owner, signup.id, 2);
    expect(pages.map((p) => p.data.length)).toEqual([...Array.from({ length: 22 }, () => 2), 1]);
    const all = pages.flatMap((p) => p.data);
    expect(new Set(all.map((p) => p.id)).size).toBe(45);
    const order = all.map((p) => `${p.createdAt} ${p.id}`);
    expect(order).toEqual([...order].sort());
    expect(all.find((p) => p.id === listed.data[0]!.id)?.status).toBe('cancelled');
  });

  it('takes in a participant who registers while the export is read, at the end', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    for (let i = 0; i < 4; i++) await register(signup.id);
    let late = 0;
    const pages = await allPages(owner, signup.id, 2, async () => {
      if (late++ === 0) await register(signup.id, { name: 'Late Comer' });
    });
    const all = pages.flatMap((p) => p.data);
    expect(all).toHaveLength(5);
    expect(all.at(-1)!.name).toBe('Late Comer');
  });

  it('ends a page early when its participants pass the byte budget, and carries on on the next', async () => {
    const owner = caller();
    const questions = Array.from({ length: 10 }, (_, i) => ({ type: 'long_text' as const, label: `Story ${i}` }));
    const { signup } = await h.signup(owner, { signup: { questions } });
    const answers = Object.fromEntries(signup.questions.map((q) => [q.id, 'x'.repeat(5000)]));
    for (let i = 0; i < 10; i++) await register(signup.id, { answers });
    const pages = await allPages(owner, signup.id);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flatMap((p) => p.data)).toHaveLength(10);
  });

  it("names selections and lines, and carries the signup's zone and questions", async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, {
      signup: { timeZone: 'America/New_York', questions: [{ type: 'short_text', label: 'T-shirt size' }], waitlist: { enabled: true } },
      slots: [{ title: 'Setup', capacity: 1, startTime: '2030-06-01T13:00:00.000Z', endTime: '2030-06-01T15:00:00.000Z' }],
      items: [{ name: 'Chairs', quantityNeeded: 5 }],
    });
    const question = signup.questions[0]!.id;
    await register(signup.id, { selections: [{ type: 'slot', id: slots[0]!.id }], answers: { [question]: 'M' } });
    await register(signup.id, {
      name: 'Waiting',
      selections: [
        { type: 'slot', id: slots[0]!.id },
        { type: 'item', id: items[0]!.id, quantity: 2 },
      ],
    });
    const [first] = await allPages(owner, signup.id);
    expect(first!.signup).toEqual({ id: signup.id, slug: signup.slug, title: signup.title, timeZone: 'America/New_York' });
    expect(first!.questions).toEqual([{ id: question, label: 'T-shirt size' }]);
    expect(first!.data[0]).toMatchObject({
      answers: { [question]: 'M' },
      selections: [
        { type: 'slot', title: 'Setup', quantity: 1, startTime: '2030-06-01T13:00:00.000Z', endTime: '2030-06-01T15:00:00.000Z' },
      ],
    });
    expect(first!.data[1]).toMatchObject({
      name: 'Waiting',
      selections: [{ type: 'item', title: 'Chairs', quantity: 2, startTime: null }],
      waitlist: [{ type: 'slot', title: 'Setup', state: 'waiting', position: 1 }],
    });
  });

  it("refuses another organization's signup, an unknown one, a bad cursor and a page too large", async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    expect(await problemOf(page(caller(), signup.id))).toMatchObject({ code: 'forbidden' });
    expect(await problemOf(page(owner, '00000000-0000-4000-8000-000000000000'))).toMatchObject({ code: 'not_found' });
    expect(await problemOf(page(owner, signup.id, { cursor: 'bm90IGEgY3Vyc29y' }))).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'cursor' }],
    });
    expect(await problemOf(page(owner, signup.id, { limit: 501 }))).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'limit' }],
    });
  });
});
