import type { DataSource } from 'typeorm';
import { newId, type Principal, type SelectionInput } from '#libs/contracts';
import { SecretBox } from '#libs/crypto';
import { type AppHarness, caller, daysFromNow, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;
let db: DataSource;

beforeAll(async () => {
  h = await startApp('signups_message_contexts', { transport: 'nats' });
  db = h.app.context.dataSource!;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const ORIGIN = 'https://api.example.test';

const contexts = (participantIds: string[]) => h.stack.bus.request('signups.participants.messages', { participantIds });

async function register(signupId: string, selections: SelectionInput[] = []) {
  const { confirmationToken } = await h.stack.bus.request('signups.participants.register', {
    signupId,
    input: { ...person(), selections },
  });
  const { participant } = await h.stack.bus.request('signups.registrations.get', { token: confirmationToken! });
  return { token: confirmationToken!, id: participant.id };
}

async function participantOf(owner: Principal, signupId: string, id: string) {
  const { data } = await h.stack.bus.request('signups.participants.list', { principal: owner, signupId, query: {} });
  return data.find((p) => p.id === id)!;
}

describe('the message context of a participant', () => {
  it('holds the signup, the participant as the organizer reads it, what it holds, and its edit link', async () => {
    const owner = caller({ livemode: true });
    const eventDate = daysFromNow(20);
    const { signup, slots, items } = await h.signup(owner, {
      signup: { description: 'Bring a plate.', location: 'Town hall', eventDate },
      slots: [
        { title: 'Cleanup', capacity: 5, startTime: daysFromNow(21), endTime: daysFromNow(22) },
        { title: 'Untimed', capacity: 5 },
        { title: 'Setup', capacity: 5, startTime: daysFromNow(20), endTime: daysFromNow(21) },
        { title: 'Not mine', capacity: 5 },
      ],
      items: [{ name: 'Salad', quantityNeeded: 3 }],
    });
    const held = [0, 1, 2].map((i) => ({ type: 'slot', id: slots[i]!.id }) as const);
    const { token, id } = await register(signup.id, [...held, { type: 'item', id: items[0]!.id, quantity: 2 }]);
    const { data } = await contexts([id]);
    const slotRows = await db.query(`SELECT id, updated_at FROM signups.slots WHERE signup_id = $1`, [signup.id]);
    const updatedAt = (slotId: string) => slotRows.find((r: { id: string }) => r.id === slotId).updated_at.toISOString();
    const [itemRow] = await db.query(`SELECT updated_at FROM signups.items WHERE id = $1`, [items[0]!.id]);
    expect(data).toEqual([
      {
        signup: {
          id: signup.id,
          title: signup.title,
          description: 'Bring a plate.',
          location: 'Town hall',
          eventDate,
          timeZone: 'UTC',
          publicUrl: `${ORIGIN}/s/${signup.slug}`,
          status: 'published',
          updatedAt: signup.updatedAt,
          organizationId: owner.organizationId,
          livemode: true,
        },
        participant: await participantOf(owner, signup.id, id),
        slots: [slots[2]!, slots[0]!, slots[1]!].map((slot) => ({
          id: slot.id,
          title: slot.title,
          startsAt: slot.startTime,
          endsAt: slot.endTime,
          updatedAt: updatedAt(slot.id),
        })),
        items: [{ id: items[0]!.id, name: 'Salad', updatedAt: itemRow.updated_at.toISOString() }],
        manageUrl: `${ORIGIN}/r/${token}`,
        offers: [],
      },
    ]);
  });

  it("carries an edit link whose token opens the participant's registration", async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const { token, id } = await register(signup.id);
    const [context] = (await contexts([id])).data;
    const opened = context!.manageUrl!.slice(`${ORIGIN}/r/`.length);
    expect(opened).toBe(token);
    expect((await h.stack.bus.request('signups.registrations.get', { token: opened })).participant.id).toBe(id);
  });

  it('keeps the token in the database only sealed, beside its hash', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const { token, id } = await register(signup.id);
    const [row] = await db.query(`SELECT token_hash, token_sealed FROM signups.participants WHERE id = $1`, [id]);
    expect(row.token_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(JSON.stringify(row)).not.toContain(token.slice('cnf_'.length));
  });

  it('names the slots and items waited for, and links each offer to the registration page, at the offer', async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, {
      signup: { waitlist: { enabled: true, mode: 'offer', offerMinutes: 60 } },
      slots: [{ title: 'Setup', capacity: 1 }],
      items: [{ name: 'Chairs', quantityNeeded: 1 }],
    });
    const S = { type: 'slot', id: slots[0]!.id } as const;
    const I = { type: 'item', id: items[0]!.id } as const;
    const holder = await register(signup.id, [S, I]);
    const waiting = await register(signup.id, [S, I]);
    await h.stack.bus.request('signups.registrations.cancel', { token: holder.token });
    const [context] = (await contexts([waiting.id])).data;
    const offered = context!.participant.waitlist;
    expect(offered.map((e) => [e.type, e.state])).toEqual([
      ['slot', 'offered'],
      ['item', 'offered'],
    ]);
    expect(context!.participant.status).toBe('offered');
    expect(context!.slots.map((s) => s.title)).toEqual(['Setup']);
    expect(context!.items.map((i) => i.name)).toEqual(['Chairs']);
    expect(context!.offers).toEqual(
      offered.map((entry) => ({
        entryId: entry.id,
        type: entry.type,
        targetId: entry.targetId,
        acceptUrl: `${ORIGIN}/r/${waiting.token}#waitlist-${entry.id}`,
        declineUrl: `${ORIGIN}/r/${waiting.token}#waitlist-${entry.id}`,
      })),
    );
  });

  it('has no edit link and no offer links for a participant registered before tokens were sealed, or sealed under another key', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, {
      signup: { waitlist: { enabled: true, mode: 'offer' } },
      slots: [{ title: 'Setup', capacity: 1 }],
    });
    const S = { type: 'slot', id: slots[0]!.id } as const;
    const holder = await register(signup.id, [S]);
    const before = await register(signup.id, [S]);
    const rekeyed = await register(signup.id);
    await h.stack.bus.request('signups.registrations.cancel', { token: holder.token });
    await db.query(`UPDATE signups.participants SET token_sealed = NULL WHERE id = $1`, [before.id]);
    const otherKey = new SecretBox(SecretBox.generateKey()).seal(rekeyed.token);
    await db.query(`UPDATE signups.participants SET token_sealed = $2 WHERE id = $1`, [rekeyed.id, otherKey]);
    const { data } = await contexts([before.id, rekeyed.id]);
    expect(data.map((c) => [c.participant.id, c.manageUrl, c.offers])).toEqual(
      [
        [before.id, null, []],
        [rekeyed.id, null, []],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(data.find((c) => c.participant.id === before.id)!.participant.status).toBe('offered');
  });

  it('answers the participants of several signups and organizations in one request, each once, leaving unknown ids out', async () => {
    const [a, b] = [caller(), caller({ livemode: true })];
    const first = await h.signup(a);
    const second = await h.signup(b, { signup: { title: 'Bake sale' } });
    const ids = [(await register(first.signup.id)).id, (await register(second.signup.id)).id, (await register(first.signup.id)).id];
    const cancelled = await register(second.signup.id);
    await h.stack.bus.request('signups.registrations.cancel', { token: cancelled.token });
    const { data } = await contexts([...ids, newId(), ids[0]!.toUpperCase(), cancelled.id]);
    expect(data.map((c) => c.participant.id)).toEqual([...ids, cancelled.id].sort());
    const byId = new Map(data.map((c) => [c.participant.id, c]));
    expect(byId.get(ids[1]!)!.signup).toMatchObject({ title: 'Bake sale', organizationId: b.organizationId, livemode: true });
    expect(byId.get(ids[1]!)!.participant.livemode).toBe(true);
    expect(byId.get(ids[0]!)!.signup).toMatchObject({ organizationId: a.organizationId, livemode: false });
    expect(byId.get(cancelled.id)!.participant.status).toBe('cancelled');
    expect((await contexts([])).data).toEqual([]);
    expect((await contexts([newId()])).data).toEqual([]);
  });

  it('refuses a request that is no list of at most 100 uuids with 422 naming where', async () => {
    const cases: [unknown, string][] = [
      [undefined, 'participantIds'],
      ['x', 'participantIds'],
      [Array.from({ length: 101 }, newId), 'participantIds'],
      [[newId(), 'not-a-uuid'], 'participantIds.1'],
      [[42], 'participantIds.0'],
    ];
    for (const [participantIds, path] of cases) {
      const problem = await problemOf(
        h.stack.bus.request('signups.participants.messages', { participantIds } as { participantIds: string[] }),
      );
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path }] });
    }
    expect((await contexts(Array.from({ length: 100 }, newId))).data).toEqual([]);
  });
});
