import type { DataSource } from 'typeorm';
import type { CloudEvent, Principal, RegistrationResultView, SelectionInput } from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import { createTestStack, eventually, type TestStack } from '#libs/testing';
import { signupsServiceApp } from '../index.js';
import { caller, daysFromNow, person, problemOf, SIGNUP_TIME_ZONE, SIGNUPS_ENV } from '../testing/fixtures.js';

/**
 * Two replicas of the service share the signups.* subjects through the NATS queue group and one
 * Postgres database, as in production: hundreds of registrations join one line at once, and
 * cancellations and capacity changes race the promotions they cause.
 */
let stack: TestStack;
let db: DataSource;
const replicas: RunningApp[] = [];
const events: CloudEvent[] = [];

beforeAll(async () => {
  stack = await createTestStack('signups_waitlist_race', { transport: 'nats' });
  replicas.push(await stack.boot(signupsServiceApp, SIGNUPS_ENV));
  replicas.push(await stack.boot(signupsServiceApp, SIGNUPS_ENV));
  db = replicas[0]!.context.dataSource!;
  await stack.bus.broadcast(['participant.promoted'], async (event) => {
    events.push(event);
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const TIMEOUT = { timeoutMs: 60_000 };

async function publishedShift(owner: Principal, capacity: number) {
  const signup = await stack.bus.request('signups.create', {
    principal: owner,
    input: { title: 'Water station', eventDate: daysFromNow(10), timeZone: SIGNUP_TIME_ZONE, waitlist: { enabled: true } },
  });
  const {
    data: [slot],
  } = await stack.bus.request('signups.slots.create', { principal: owner, signupId: signup.id, input: [{ title: 'Morning', capacity }] });
  await stack.bus.request('signups.publish', { principal: owner, id: signup.id });
  return { signupId: signup.id, slotId: slot!.id };
}

function register(signupId: string, selections: SelectionInput[]): Promise<RegistrationResultView> {
  return stack.bus.request('signups.participants.register', { signupId, input: { ...person(), selections } }, TIMEOUT);
}

/** Who holds the slot now and who waits for it, in line order. */
async function lineOf(slotId: string): Promise<{ confirmed: string[]; waiting: string[] }> {
  const confirmed = (await db.query(
    `SELECT s.participant_id AS id FROM signups.selections s JOIN signups.participants p ON p.id = s.participant_id
     WHERE s.target_id = $1 AND p.status <> 'cancelled'`,
    [slotId],
  )) as { id: string }[];
  const waiting = (await db.query(
    `SELECT participant_id AS id FROM signups.waitlist_entries WHERE target_id = $1 AND state = 'waiting' ORDER BY seq`,
    [slotId],
  )) as { id: string }[];
  return { confirmed: confirmed.map((r) => r.id), waiting: waiting.map((r) => r.id) };
}

/**
 * The waitlist's invariant for a slot: its count is what its holders hold, never above its
 * capacity; no place is free while someone who fits waits; the line's positions are 1..n.
 */
async function expectInvariant(slotId: string): Promise<void> {
  const [slot] = (await db.query(
    `SELECT capacity, taken,
       (SELECT COALESCE(sum(s.quantity), 0)::int FROM signups.selections s JOIN signups.participants p ON p.id = s.participant_id
        WHERE s.target_id = $1 AND p.status <> 'cancelled') AS held,
       (SELECT min(quantity) FROM signups.waitlist_entries WHERE target_id = $1 AND state = 'waiting') AS smallest_waiting
     FROM signups.slots WHERE id = $1`,
    [slotId],
  )) as { capacity: number; taken: number; held: number; smallest_waiting: number | null }[];
  expect(slot!.taken).toBe(slot!.held);
  expect(slot!.taken).toBeLessThanOrEqual(slot!.capacity);
  if (slot!.smallest_waiting !== null) expect(slot!.capacity - slot!.taken).toBeLessThan(slot!.smallest_waiting);
}

describe('a line of 290 behind a slot of 10, on two replicas', () => {
  it('confirms exactly 10, gives the others positions 1..290 once each, and promotes the first 50 in line for 50 cancellations', async () => {
    const owner = caller();
    const { signupId, slotId } = await publishedShift(owner, 10);
    const results = await Promise.all(Array.from({ length: 300 }, () => register(signupId, [{ type: 'slot', id: slotId }])));
    const confirmed = results.filter((r) => r.confirmed.length === 1);
    const waiting = results.filter((r) => r.waitlisted.length === 1);
    expect(confirmed).toHaveLength(10);
    expect(waiting).toHaveLength(290);
    expect(waiting.map((r) => r.waitlisted[0]!.position).sort((a, b) => a - b)).toEqual(Array.from({ length: 290 }, (_, i) => i + 1));
    await expectInvariant(slotId);

    const { waiting: line } = await lineOf(slotId);
    const tokenOf = new Map(results.map((r) => [(r.confirmed[0] ?? r.waitlisted[0])!.participantId, r.confirmationToken!]));
    // Each of the first 40 in line is cancelled as soon as it is promoted, while the first 10
    // holders are cancelled at once: 50 cancellations in flight together, each promoting the next.
    let peak = 0;
    let done = false;
    const watcher = (async () => {
      while (!done) {
        peak = Math.max(peak, (await lineOf(slotId)).confirmed.length);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const cancelWhenConfirmed = async (participantId: string) => {
      const token = tokenOf.get(participantId)!;
      await eventually(async () => {
        expect((await stack.bus.request('signups.registrations.get', { token })).participant.status).toBe('confirmed');
      }, 30_000);
      await stack.bus.request('signups.registrations.cancel', { token }, TIMEOUT);
    };
    await Promise.all([
      ...confirmed.map((r) => stack.bus.request('signups.registrations.cancel', { token: r.confirmationToken! }, TIMEOUT)),
      ...line.slice(0, 40).map(cancelWhenConfirmed),
    ]);
    done = true;
    await watcher;

    expect(peak).toBeLessThanOrEqual(10);
    const after = await lineOf(slotId);
    expect(after.confirmed.sort()).toEqual(line.slice(40, 50).sort());
    expect(after.waiting).toEqual(line.slice(50));
    await expectInvariant(slotId);
    await eventually(() => expect(events.filter((e) => e.type === 'participant.promoted' && slotHolder(e, line))).toHaveLength(50), 20_000);
    const promoted = events.filter((e) => slotHolder(e, line)).map((e) => e.subject!);
    expect(promoted.sort()).toEqual(line.slice(0, 50).sort());
  }, 180_000);

  it('keeps the invariant after every step of interleaved registrations, cancellations and capacity changes', async () => {
    const owner = caller();
    const { signupId, slotId } = await publishedShift(owner, 4);
    const tokens: string[] = [];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let step = 0; step < 12; step++) {
      const registrations = Array.from({ length: 6 }, () => register(signupId, [{ type: 'slot', id: slotId, quantity: 1 + random(2) }]));
      const cancellations = tokens
        .splice(0, random(4))
        .map((token) => stack.bus.request('signups.registrations.cancel', { token }, TIMEOUT));
      const { capacity, taken } = (await stack.bus.request('signups.get', { principal: owner, id: signupId })).slots![0]!;
      const resize = outcome(
        stack.bus.request(
          'signups.slots.update',
          { principal: owner, signupId, id: slotId, input: { capacity: Math.max(taken, capacity + random(5) - 2, 1) } },
          TIMEOUT,
        ),
      );
      const [registered, , resized] = await Promise.all([Promise.all(registrations), Promise.all(cancellations), resize]);
      // A capacity read before the registrations of the step may have dropped below what they took meanwhile.
      expect(['ok', 'conflict']).toContain(resized);
      tokens.push(...registered.flatMap((r) => (r.confirmationToken ? [r.confirmationToken] : [])));
      await expectInvariant(slotId);
    }
  }, 180_000);
});

describe('offers across a restart', () => {
  it('passes on an offer that ran out while no replica was running, once one starts again', async () => {
    const owner = caller();
    const signup = await stack.bus.request('signups.create', {
      principal: owner,
      input: {
        title: 'Night shift',
        eventDate: daysFromNow(10),
        timeZone: SIGNUP_TIME_ZONE,
        waitlist: { enabled: true, mode: 'offer', offerMinutes: 5 },
      },
    });
    const {
      data: [slot],
    } = await stack.bus.request('signups.slots.create', {
      principal: owner,
      signupId: signup.id,
      input: [{ title: 'Night', capacity: 1 }],
    });
    await stack.bus.request('signups.publish', { principal: owner, id: signup.id });
    const S = [{ type: 'slot', id: slot!.id } as const];
    const [holder, offered, next] = [await register(signup.id, S), await register(signup.id, S), await register(signup.id, S)];
    await stack.bus.request('signups.registrations.cancel', { token: holder.confirmationToken! }, TIMEOUT);
    const statusOf = async (token: string) => (await stack.bus.request('signups.registrations.get', { token })).participant.status;
    expect(await statusOf(offered.confirmationToken!)).toBe('offered');

    // The offer runs out, and every replica stops before its next sweep (every 15 s).
    await db.query(
      `UPDATE signups.waitlist_entries SET offer_expires_at = now() - interval '1 second' WHERE signup_id = $1 AND state = 'offered'`,
      [signup.id],
    );
    for (const replica of replicas.splice(0)) await replica.close();
    replicas.push(await stack.boot(signupsServiceApp, { ...SIGNUPS_ENV, OFFER_SWEEP_MS: '100' }));
    await eventually(async () => expect(await statusOf(next.confirmationToken!)).toBe('offered'), 10_000);
    expect(await statusOf(offered.confirmationToken!)).toBe('cancelled');
  }, 60_000);
});

async function outcome(request: Promise<unknown>): Promise<string> {
  return request.then(
    () => 'ok',
    async (err: unknown) => (await problemOf(Promise.reject(err))).code,
  );
}

function slotHolder(event: CloudEvent, line: string[]): boolean {
  return event.type === 'participant.promoted' && line.includes(event.subject!);
}
