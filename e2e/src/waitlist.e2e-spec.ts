import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type {
  ParticipantView,
  RegistrationResultView,
  RegistrationView,
  SignupView,
  SlotView,
  WaitlistedParticipantView,
  WaitlistEntryView,
} from '#libs/contracts';
import { eventually } from '#libs/testing';
import { call, newTenant, type Tenant } from './support/api.js';
import { newSignup, person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

type Page<T> = { data: T[]; nextCursor: string | null };
const MISSING_ID = '0190a0b2-7a3c-7def-8a12-1234567890ab';
const MISSING_TOKEN = `cnf_${'0'.repeat(32)}`;

/** Runs one statement on the stack's database: how a test moves an offer's or an event's time into the past. */
async function sql(text: string, params: unknown[]): Promise<void> {
  const db = new pg.Client({ connectionString: stackInfo().databaseUrl });
  await db.connect();
  try {
    await db.query(text, params);
  } finally {
    await db.end();
  }
}

describe('waitlists over REST', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await newTenant('pro');
  });

  /** A published signup with one slot of `capacity` and the waitlist on in `mode`. */
  const shift = async (mode: 'auto' | 'offer', capacity = 1) => {
    const { signup, slots } = await newSignup(tenant.key, {
      fields: { waitlist: { enabled: true, mode, offerMinutes: 30 } },
      slots: [{ title: 'Setup', capacity }],
    });
    return { signup, slot: slots[0]! };
  };

  /** Registers a fresh person for the slot: the answer and their confirmation token. */
  const join = async (signupId: string, slot: SlotView) => {
    const res = await call<RegistrationResultView>(`/signups/${signupId}/participants`, { body: person([{ type: 'slot', id: slot.id }]) });
    expect(res.status).toBe(201);
    return { result: res.body, token: res.body.confirmationToken! };
  };

  const registration = async (token: string) => (await call<RegistrationView>(`/registrations/${token}`)).body.participant;
  const entryOf = async (token: string): Promise<WaitlistEntryView> => (await registration(token)).waitlist[0]!;
  const waitlist = (signupId: string, query = '') =>
    call<Page<WaitlistedParticipantView>>(`/signups/${signupId}/waitlist${query}`, { key: tenant.key });
  const cancel = (token: string) => call<RegistrationView>(`/registrations/${token}`, { method: 'DELETE' });
  const accept = (token: string, entryId: string, headers: Record<string, string> = {}) =>
    call<RegistrationView>(`/registrations/${token}/waitlist/${entryId}/accept`, { method: 'POST', headers });
  const leave = (token: string, entryId: string) =>
    call<RegistrationView>(`/registrations/${token}/waitlist/${entryId}`, { method: 'DELETE' });
  const promote = (signupId: string, entryId: string, key = tenant.key) =>
    call<ParticipantView>(`/signups/${signupId}/waitlist/${entryId}/promote`, { key, method: 'POST' });

  describe('settings', () => {
    it('takes waitlist settings on create and changes only the ones a PATCH gives', async () => {
      const { signup } = await newSignup(tenant.key, { publish: false, fields: { waitlist: { enabled: true } } });
      expect(signup.waitlist).toEqual({ enabled: true, mode: 'auto', offerMinutes: 1440 });
      const patched = await call<SignupView>(`/signups/${signup.id}`, {
        key: tenant.key,
        method: 'PATCH',
        body: { waitlist: { mode: 'offer' } },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.waitlist).toEqual({ enabled: true, mode: 'offer', offerMinutes: 1440 });
      const invalid = await call(`/signups/${signup.id}`, {
        key: tenant.key,
        method: 'PATCH',
        body: { waitlist: { offerMinutes: 1, mode: 'x' } },
      });
      expect(invalid.status).toBe(422);
      expect((invalid.body.errors as { path: string }[]).map((e) => e.path).sort()).toEqual(['waitlist.mode', 'waitlist.offerMinutes']);
    });
  });

  describe('joining and reading the line', () => {
    it('answers a registration past a full slot with 201, a token and its place in waitlisted', async () => {
      const { signup, slot } = await shift('auto');
      const first = await join(signup.id, slot);
      expect(first.result.confirmed).toEqual([{ type: 'slot', id: slot.id, participantId: expect.any(String) }]);
      expect(first.result.waitlisted).toEqual([]);
      const second = await join(signup.id, slot);
      expect(second.result).toMatchObject({ success: true, confirmed: [], failed: [] });
      expect(second.result.waitlisted).toEqual([{ type: 'slot', id: slot.id, participantId: expect.any(String), position: 1 }]);
      const third = await join(signup.id, slot);
      expect(third.result.waitlisted).toEqual([expect.objectContaining({ position: 2 })]);
      const waiting = await registration(second.token);
      expect(waiting).toMatchObject({ status: 'waitlisted', selections: [], cancelledAt: null });
      expect(waiting.waitlist).toEqual([
        {
          id: expect.any(String),
          type: 'slot',
          targetId: slot.id,
          quantity: 1,
          state: 'waiting',
          position: 1,
          joinedAt: expect.any(String),
          offeredAt: null,
          offerExpiresAt: null,
        },
      ]);
    });

    it("puts a registration past maxParticipants in the signup's own line", async () => {
      const { signup } = await newSignup(tenant.key, { fields: { maxParticipants: 1, waitlist: { enabled: true } } });
      await call(`/signups/${signup.id}/participants`, { body: person() });
      const res = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, { body: person() });
      expect(res.status).toBe(201);
      expect(res.body.waitlisted).toEqual([{ type: 'signup', id: signup.id, participantId: expect.any(String), position: 1 }]);
    });

    it('reads the line in order with positions and contacts, pages it, filters it, and keeps it out of caches', async () => {
      const { signup, slot } = await shift('auto');
      await join(signup.id, slot);
      const [b, c] = [await join(signup.id, slot), await join(signup.id, slot)];
      const res = await waitlist(signup.id);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body.nextCursor).toBeNull();
      expect(res.body.data.map((e) => [e.participantId, e.type, e.targetId, e.state, e.position])).toEqual([
        [b.result.waitlisted[0]!.participantId, 'slot', slot.id, 'waiting', 1],
        [c.result.waitlisted[0]!.participantId, 'slot', slot.id, 'waiting', 2],
      ]);
      expect(res.body.data[0]).toMatchObject({ name: expect.stringMatching(/^Person /), email: expect.stringContaining('@example.com') });
      const first = await waitlist(signup.id, '?limit=1');
      expect(first.body.data.map((e) => e.position)).toEqual([1]);
      const next = await waitlist(signup.id, `?limit=1&cursor=${first.body.nextCursor}`);
      expect(next.body.data.map((e) => e.position)).toEqual([2]);
      expect((await waitlist(signup.id, `?type=slot&targetId=${slot.id.toUpperCase()}`)).body.data).toHaveLength(2);
      expect((await waitlist(signup.id, '?type=item')).body.data).toEqual([]);
      expect((await waitlist(signup.id, `?targetId=${MISSING_ID}`)).body.data).toEqual([]);
    });

    it('itemizes a bad type, targetId and cursor of the waitlist query', async () => {
      const { signup } = await shift('auto');
      const res = await waitlist(signup.id, '?type=lottery&targetId=nope');
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
      expect((res.body as unknown as { errors: { path: string }[] }).errors.map((e) => e.path).sort()).toEqual(['targetId', 'type']);
      const cursor = await waitlist(signup.id, '?cursor=nonsense');
      expect(cursor.status).toBe(422);
      expect(cursor.body).toMatchObject({ errors: [{ path: 'cursor', message: 'Invalid cursor' }] });
    });

    it("refuses the waitlist of another organization's signup, and without participants:read", async () => {
      const { signup } = await shift('auto');
      const other = await newTenant('pro');
      expect((await call(`/signups/${signup.id}/waitlist`, { key: other.key })).body).toMatchObject({ code: 'forbidden', status: 403 });
      const writer = await tenant.newKey({ scopes: 'signups:read signups:write' });
      expect((await call(`/signups/${signup.id}/waitlist`, { key: writer.key })).body).toMatchObject({
        code: 'scope_required',
        status: 403,
      });
      expect((await call(`/signups/${MISSING_ID}/waitlist`, { key: tenant.key })).status).toBe(404);
    });
  });

  describe('cancellations and the status filter', () => {
    it('promotes the first in line when a confirmed registration is cancelled by token (auto), and keeps the cancelled record', async () => {
      const { signup, slot } = await shift('auto');
      const [a, b, c] = [await join(signup.id, slot), await join(signup.id, slot), await join(signup.id, slot)];
      const cancelled = await cancel(a.token);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.participant).toMatchObject({
        status: 'cancelled',
        cancelledAt: expect.any(String),
        selections: [{ id: slot.id }],
      });
      expect(await registration(b.token)).toMatchObject({
        status: 'confirmed',
        selections: [{ type: 'slot', id: slot.id, quantity: 1 }],
        waitlist: [],
      });
      expect((await entryOf(c.token)).position).toBe(1);
      const again = await cancel(a.token);
      expect(again.status).toBe(200);
      expect(again.body.participant).toEqual(cancelled.body.participant);
      expect((await registration(b.token)).status).toBe('confirmed');
    });

    it('lists every status but cancelled by default, one status on request, and refuses an unknown one', async () => {
      const { signup, slot } = await shift('auto');
      const [a, b, c] = [await join(signup.id, slot), await join(signup.id, slot), await join(signup.id, slot)];
      await cancel(a.token);
      const ids = async (query: string) =>
        (await call<Page<ParticipantView>>(`/signups/${signup.id}/participants${query}`, { key: tenant.key })).body.data.map((p) => p.id);
      const [idA, idB, idC] = [
        a.result.confirmed[0]!.participantId,
        b.result.waitlisted[0]!.participantId,
        c.result.waitlisted[0]!.participantId,
      ];
      expect((await ids('')).sort()).toEqual([idB, idC].sort());
      expect(await ids('?status=cancelled')).toEqual([idA]);
      expect(await ids('?status=confirmed')).toEqual([idB]);
      expect(await ids('?status=waitlisted')).toEqual([idC]);
      expect(await ids('?status=offered')).toEqual([]);
      const unknown = await call(`/signups/${signup.id}/participants?status=gone`, { key: tenant.key });
      expect(unknown.status).toBe(422);
      expect(unknown.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'status' }] });
    });

    it('cancels by the organizer idempotently: DELETE of a participant twice answers the cancelled record twice', async () => {
      const { signup, slot } = await shift('auto');
      const [a, b] = [await join(signup.id, slot), await join(signup.id, slot)];
      const path = `/signups/${signup.id}/participants/${a.result.confirmed[0]!.participantId}`;
      const first = await call<ParticipantView>(path, { key: tenant.key, method: 'DELETE' });
      expect(first.status).toBe(200);
      expect(first.body.status).toBe('cancelled');
      const second = await call<ParticipantView>(path, { key: tenant.key, method: 'DELETE' });
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect((await registration(b.token)).status).toBe('confirmed');
    });
  });

  describe('offers, by confirmation token', () => {
    /** Offer mode, the slot taken by A, B and C in line, then A cancels: B holds an offer. */
    const offered = async () => {
      const { signup, slot } = await shift('offer');
      const [a, b, c] = [await join(signup.id, slot), await join(signup.id, slot), await join(signup.id, slot)];
      await cancel(a.token);
      return { signup, slot, b, c, entry: await entryOf(b.token) };
    };

    it('offers the freed place to the first in line, who accepts it; a second accept answers the same', async () => {
      const { slot, b, c, entry } = await offered();
      expect(entry).toMatchObject({ state: 'offered', position: null, offeredAt: expect.any(String) });
      const holds = new Date(entry.offerExpiresAt!).getTime() - new Date(entry.offeredAt!).getTime();
      expect(holds).toBe(30 * 60_000);
      expect((await registration(b.token)).status).toBe('offered');
      const accepted = await accept(b.token, entry.id);
      expect(accepted.status).toBe(200);
      expect(accepted.headers.get('cache-control')).toBe('no-store');
      expect(accepted.headers.get('referrer-policy')).toBe('no-referrer');
      expect(accepted.body.participant).toMatchObject({ status: 'confirmed', selections: [{ id: slot.id }], waitlist: [] });
      const again = await accept(b.token, entry.id);
      expect(again.status).toBe(200);
      expect(again.body.participant).toEqual(accepted.body.participant);
      expect((await entryOf(c.token)).position).toBe(1);
    });

    it('replays an accept sent again with its Idempotency-Key', async () => {
      const { b, entry } = await offered();
      const key = { 'idempotency-key': randomUUID() };
      const first = await accept(b.token, entry.id, key);
      const replay = await accept(b.token, entry.id, key);
      expect([first.status, replay.status]).toEqual([200, 200]);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
    });

    it('refuses to accept an entry that is only waiting with 409, and one of another registration with 404', async () => {
      const { b, c } = await offered();
      const waiting = await entryOf(c.token);
      const early = await accept(c.token, waiting.id);
      expect(early.status).toBe(409);
      expect(early.headers.get('content-type')).toContain('application/problem+json');
      expect(early.body).toMatchObject({ code: 'conflict' });
      expect((await accept(b.token, waiting.id)).body).toMatchObject({ code: 'not_found', status: 404 });
      expect((await leave(b.token, waiting.id)).body).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('answers a malformed or unknown token with 404, a malformed entry with 422 on entryId, an unknown one with 404', async () => {
      const { b, entry } = await offered();
      expect((await accept('cnf_short', entry.id)).body).toMatchObject({ code: 'not_found', status: 404 });
      expect((await accept(MISSING_TOKEN, entry.id)).body).toMatchObject({ code: 'not_found', status: 404 });
      expect((await leave(MISSING_TOKEN, entry.id)).body).toMatchObject({ code: 'not_found', status: 404 });
      expect((await accept(b.token, 'first')).body).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'entryId', message: 'Invalid uuid' }],
      });
      expect((await leave(b.token, 'first')).body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'entryId' }] });
      expect((await accept(b.token, MISSING_ID)).body).toMatchObject({ code: 'not_found', status: 404 });
      expect((await registration(b.token)).status).toBe('offered');
    });

    it('passes a declined offer to the next in line; declining again answers the same', async () => {
      const { b, c, entry } = await offered();
      const declined = await leave(b.token, entry.id);
      expect(declined.status).toBe(200);
      expect(declined.body.participant).toMatchObject({ status: 'cancelled', waitlist: [] });
      expect(await entryOf(c.token)).toMatchObject({ state: 'offered', position: null });
      const again = await leave(b.token, entry.id);
      expect(again.status).toBe(200);
      expect(again.body.participant).toEqual(declined.body.participant);
    });

    it('refuses an offer accepted after it expired with 409, and the sweep passes the place to the next in line', async () => {
      const { b, c, entry } = await offered();
      await sql(`UPDATE signups.waitlist_entries SET offer_expires_at = now() - interval '1 minute' WHERE id = $1`, [entry.id]);
      const late = await accept(b.token, entry.id);
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ code: 'conflict', detail: expect.stringContaining('expired') });
      await eventually(async () => expect(await entryOf(c.token)).toMatchObject({ state: 'offered' }), 10_000);
      expect(await registration(b.token)).toMatchObject({ status: 'cancelled', waitlist: [] });
      expect((await accept(b.token, entry.id)).status).toBe(409);
    });

    it('still takes an offer made before the signup closed, and refuses a move by token once the event has started with 400', async () => {
      const { signup, b, entry } = await offered();
      expect((await call(`/signups/${signup.id}/close`, { key: tenant.key, method: 'POST' })).status).toBe(200);
      expect((await accept(b.token, entry.id)).body).toMatchObject({ participant: { status: 'confirmed' } });
      const late = await offered();
      await sql(`UPDATE signups.signups SET event_date = now() - interval '1 hour' WHERE id = $1`, [late.signup.id]);
      expect((await accept(late.b.token, late.entry.id)).body).toMatchObject({ code: 'bad_request', status: 400 });
      expect((await leave(late.b.token, late.entry.id)).body).toMatchObject({ code: 'bad_request', status: 400 });
    });
  });

  describe("the organizer's moves", () => {
    it('refuses to promote a waiting entry when no place is free with 409 problem+json, and promotes an offered one', async () => {
      const { signup, slot } = await shift('offer');
      const [a, b, c] = [await join(signup.id, slot), await join(signup.id, slot), await join(signup.id, slot)];
      const waiting = await entryOf(b.token);
      const full = await promote(signup.id, waiting.id);
      expect(full.status).toBe(409);
      expect(full.headers.get('content-type')).toContain('application/problem+json');
      expect(full.body).toMatchObject({ code: 'conflict', detail: expect.stringContaining('No place is free') });
      await cancel(a.token);
      const promoted = await promote(signup.id, waiting.id);
      expect(promoted.status).toBe(200);
      expect(promoted.headers.get('cache-control')).toBe('no-store');
      expect(promoted.body).toMatchObject({
        id: b.result.waitlisted[0]!.participantId,
        status: 'confirmed',
        selections: [{ id: slot.id }],
      });
      expect((await entryOf(c.token)).position).toBe(1);
      expect((await promote(signup.id, waiting.id)).body).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('removes an entry from its line: those behind move up, a second removal is 404', async () => {
      const { signup, slot } = await shift('auto');
      const [, b, c] = [await join(signup.id, slot), await join(signup.id, slot), await join(signup.id, slot)];
      const entry = await entryOf(b.token);
      const removed = await call<ParticipantView>(`/signups/${signup.id}/waitlist/${entry.id}`, { key: tenant.key, method: 'DELETE' });
      expect(removed.status).toBe(200);
      expect(removed.body).toMatchObject({ id: b.result.waitlisted[0]!.participantId, status: 'cancelled', waitlist: [] });
      expect((await waitlist(signup.id)).body.data.map((e) => [e.participantId, e.position])).toEqual([
        [c.result.waitlisted[0]!.participantId, 1],
      ]);
      const twice = await call(`/signups/${signup.id}/waitlist/${entry.id}`, { key: tenant.key, method: 'DELETE' });
      expect(twice.body).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('answers the errors of promote and remove: malformed and unknown entries, scope, another organization', async () => {
      const { signup, slot } = await shift('auto');
      await join(signup.id, slot);
      const entry = await entryOf((await join(signup.id, slot)).token);
      expect((await promote(signup.id, 'first')).body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'entryId' }] });
      expect((await promote(signup.id, MISSING_ID)).body).toMatchObject({ code: 'not_found', status: 404 });
      const removeMissing = await call(`/signups/${signup.id}/waitlist/${MISSING_ID}`, { key: tenant.key, method: 'DELETE' });
      expect(removeMissing.body).toMatchObject({ code: 'not_found', status: 404 });
      const reader = await tenant.newKey({ scopes: 'participants:read' });
      expect((await promote(signup.id, entry.id, reader.key)).body).toMatchObject({
        code: 'scope_required',
        detail: 'This operation requires the scope "participants:write".',
      });
      const other = await newTenant('pro');
      expect((await promote(signup.id, entry.id, other.key)).body).toMatchObject({ code: 'forbidden', status: 403 });
      expect((await registration((await join(signup.id, slot)).token)).waitlist[0]!.position).toBe(2);
    });
  });
});
