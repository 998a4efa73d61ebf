import type { DataSource, QueryRunner } from 'typeorm';
import type { Principal, SelectionInput, SignupView } from '#libs/contracts';
import { type ProblemCode, ProblemError } from '#libs/problem';
import { eventually } from '#libs/testing';
import { SignupsRepository } from '../signups/signups.repository.js';
import { type AppHarness, caller, person, problemOf, startApp } from '../testing/fixtures.js';

/**
 * Writes that touch a participant race each other, registrations, capacity edits and the
 * deletion of their signup, on one replica and a real Postgres. Whatever the interleaving,
 * every answer is a success or a problem the operation documents (a deadlock would be a 500),
 * and the stored counts stay equal to the stored rows.
 */
let h: AppHarness;
let db: DataSource;

beforeAll(async () => {
  h = await startApp('signups_write_races');
  db = h.app.context.dataSource!;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const TIMEOUT = { timeoutMs: 60_000 };

type Outcome = 'ok' | ProblemCode;

/** What a request came to: ok, or the code of its problem. */
async function outcome(promise: Promise<unknown>): Promise<Outcome> {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    if (err instanceof ProblemError) return err.code;
    throw err;
  }
}

/** Every outcome of one kind of request is among the allowed ones (no internal_error, no undocumented problem). */
function expectOnly(outcomes: Outcome[], allowed: Outcome[]): void {
  expect(outcomes.filter((o) => !allowed.includes(o))).toEqual([]);
}

function register(signupId: string, selections: SelectionInput[]) {
  return h.stack.bus.request('signups.participants.register', { signupId, input: { ...person(), selections } }, TIMEOUT);
}

function editByToken(token: string, selections: SelectionInput[]) {
  return h.stack.bus.request('signups.registrations.update', { token, input: { selections } }, TIMEOUT);
}

function cancelByToken(token: string) {
  return h.stack.bus.request('signups.registrations.cancel', { token }, TIMEOUT);
}

function editByOrganizer(principal: Principal, signupId: string, id: string, selections: SelectionInput[]) {
  return h.stack.bus.request('signups.participants.update', { principal, signupId, id, input: { selections } }, TIMEOUT);
}

function removeByOrganizer(principal: Principal, signupId: string, id: string) {
  return h.stack.bus.request('signups.participants.delete', { principal, signupId, id }, TIMEOUT);
}

/** A stored registration: its confirmation token and participant id. */
async function registered(signupId: string, selections: SelectionInput[]): Promise<{ token: string; id: string }> {
  const result = await register(signupId, selections);
  const token = result.confirmationToken!;
  const { participant } = await h.stack.bus.request('signups.registrations.get', { token });
  return { token, id: participant.id };
}

/**
 * What is taken of every slot and item equals the sum of the stored selection quantities and
 * stays within its limit; participant_count equals the participant rows that count (not
 * cancelled, not waiting in the signup's own line).
 */
async function expectConsistent(signupId: string): Promise<void> {
  const targets = (await db.query(
    `SELECT t.id, t.used, t.total,
            COALESCE((SELECT sum(s.quantity) FROM signups.selections s JOIN signups.participants p ON p.id = s.participant_id
                      WHERE p.signup_id = $1 AND p.status <> 'cancelled' AND s.kind = t.kind AND s.target_id = t.id), 0)::int AS stored
     FROM (SELECT 'slot' AS kind, id, taken AS used, capacity AS total FROM signups.slots WHERE signup_id = $1
           UNION ALL
           SELECT 'item', id, quantity_claimed, quantity_needed FROM signups.items WHERE signup_id = $1) t`,
    [signupId],
  )) as { id: string; used: number; total: number; stored: number }[];
  expect(targets.map((t) => ({ id: t.id, used: t.used }))).toEqual(targets.map((t) => ({ id: t.id, used: t.stored })));
  for (const t of targets) expect(t.used).toBeLessThanOrEqual(t.total);
  const [counts] = (await db.query(
    `SELECT participant_count AS counted,
            (SELECT count(*)::int FROM signups.participants p WHERE p.signup_id = $1 AND p.status <> 'cancelled'
               AND NOT EXISTS (SELECT 1 FROM signups.waitlist_entries e
                               WHERE e.participant_id = p.id AND e.kind = 'signup' AND e.state = 'waiting')) AS rows
     FROM signups.signups WHERE id = $1`,
    [signupId],
  )) as { counted: number; rows: number }[];
  expect(counts!.counted).toBe(counts!.rows);
}

/** Interleaves lists of pending requests (a, b, c, a, b, c, …) so that each kind starts among the others. */
function interleave<T>(...lists: (() => T)[][]): (() => T)[] {
  const length = Math.max(...lists.map((l) => l.length));
  return Array.from({ length }, (_, i) => lists.flatMap((l) => (i < l.length ? [l[i]!] : []))).flat();
}

describe('token edits and cancellations racing registrations for the last places', () => {
  it('answers only documented outcomes and keeps every count equal to the stored selections', async () => {
    for (let round = 0; round < 3; round++) {
      const owner = caller();
      const {
        signup,
        slots: [scarce, roomy],
        items: [cake],
      } = await h.signup(owner, {
        signup: { maxParticipants: 26 },
        slots: [
          { title: 'Last places', capacity: 6 },
          { title: 'Roomy', capacity: 1000 },
        ],
        items: [{ name: 'Cake', quantityNeeded: 8 }],
      });
      const S = { type: 'slot', id: scarce!.id } as const;
      const R = { type: 'slot', id: roomy!.id } as const;
      const C = { type: 'item', id: cake!.id } as const;
      const initial: SelectionInput[][] = [[S], [R], [C], [S, C]];
      const holders = [];
      for (let i = 0; i < 12; i++) holders.push(await registered(signup.id, initial[i % initial.length]!));

      const asked: SelectionInput[][] = [[S], [{ ...S, quantity: 2 }, R], [C, S], [R], [{ ...C, quantity: 2 }]];
      const moves: SelectionInput[][] = [[{ ...S, quantity: 2 }], [R], [S, { ...C, quantity: 2 }], [C], []];
      const registrations = Array.from({ length: 40 }, (_, i) => () => outcome(register(signup.id, asked[i % asked.length]!)));
      const edits = holders.flatMap(({ token }, i) => [
        () => outcome(editByToken(token, moves[i % moves.length]!)),
        () => outcome(editByToken(token, moves[(i + 2) % moves.length]!)),
      ]);
      // The last four are canceled while they are being edited.
      const cancels = holders.slice(8).map(
        ({ token }) =>
          () =>
            outcome(cancelByToken(token)),
      );
      const kinds = new Map<() => Promise<Outcome>, 'register' | 'edit' | 'cancel'>([
        ...registrations.map((r) => [r, 'register'] as const),
        ...edits.map((e) => [e, 'edit'] as const),
        ...cancels.map((c) => [c, 'cancel'] as const),
      ]);
      const order = interleave(registrations, edits, cancels);
      const outcomes = await Promise.all(order.map((run) => run()));
      const of = (kind: string) => outcomes.filter((_, i) => kinds.get(order[i]!) === kind);

      expectOnly(of('register'), ['ok', 'bad_request']);
      expectOnly(of('edit'), ['ok', 'conflict', 'not_found']);
      expectOnly(of('cancel'), ['ok']);
      await expectConsistent(signup.id);
    }
  }, 120_000);
});

describe("organizer capacity edits lowering a slot's capacity racing registrations", () => {
  it('never leaves a limit below what is taken, and keeps every count equal to the stored selections', async () => {
    for (let round = 0; round < 3; round++) {
      const owner = caller();
      const {
        signup,
        slots: [slot],
        items: [item],
      } = await h.signup(owner, {
        slots: [{ title: 'Shift', capacity: 30 }],
        items: [{ name: 'Chairs', quantityNeeded: 30 }],
      });
      const S = { type: 'slot', id: slot!.id } as const;
      const I = { type: 'item', id: item!.id } as const;
      const asked: SelectionInput[][] = [[S], [{ ...S, quantity: 2 }], [I, S], [{ ...I, quantity: 2 }]];
      const registrations = Array.from({ length: 40 }, (_, i) => () => outcome(register(signup.id, asked[i % asked.length]!)));
      const patch = (kind: 'slot' | 'item', total: number) => () =>
        outcome(
          kind === 'slot'
            ? h.stack.bus.request(
                'signups.slots.update',
                { principal: owner, signupId: signup.id, id: slot!.id, input: { capacity: total } },
                TIMEOUT,
              )
            : h.stack.bus.request(
                'signups.items.update',
                { principal: owner, signupId: signup.id, id: item!.id, input: { quantityNeeded: total } },
                TIMEOUT,
              ),
        );
      const patches = [
        patch('slot', 26),
        patch('item', 24),
        patch('slot', 20),
        patch('item', 16),
        patch('slot', 14),
        patch('item', 10),
        patch('slot', 9),
      ];
      const order = interleave(registrations.slice(0, 20), patches, registrations.slice(20));
      const outcomes = await Promise.all(order.map((run) => run()));

      expectOnly(
        outcomes.filter((_, i) => patches.includes(order[i]!)),
        ['ok', 'conflict'],
      );
      expectOnly(
        outcomes.filter((_, i) => !patches.includes(order[i]!)),
        ['ok'],
      );
      await expectConsistent(signup.id);
    }
  }, 120_000);
});

describe('deleting a signup while its participants are being edited', () => {
  it('deletes it with everything in it, and every edit either lands first or finds nothing (never a deadlock)', async () => {
    for (let round = 0; round < 6; round++) {
      const owner = caller();
      const {
        signup,
        slots: [a, b],
        items: [cake],
      } = await h.signup(owner, {
        slots: [
          { title: 'A', capacity: 40 },
          { title: 'B', capacity: 40 },
        ],
        items: [{ name: 'Cake', quantityNeeded: 40 }],
      });
      const A = { type: 'slot', id: a!.id } as const;
      const B = { type: 'slot', id: b!.id } as const;
      const C = { type: 'item', id: cake!.id } as const;
      const holders = [];
      for (let i = 0; i < 8; i++) holders.push(await registered(signup.id, i % 2 === 0 ? [A, C] : [B]));

      const organizerEdits = holders.map(
        ({ id }, i) =>
          () =>
            outcome(editByOrganizer(owner, signup.id, id, i % 2 === 0 ? [B] : [A, { ...C, quantity: 2 }])),
      );
      const tokenEdits = holders.map(
        ({ token }, i) =>
          () =>
            outcome(editByToken(token, i % 2 === 0 ? [A, B] : [C])),
      );
      const removals = holders.slice(0, 2).map(
        ({ id }) =>
          () =>
            outcome(removeByOrganizer(owner, signup.id, id)),
      );
      const cancels = holders.slice(6).map(
        ({ token }) =>
          () =>
            outcome(cancelByToken(token)),
      );
      const deletion = () => outcome(h.stack.bus.request('signups.delete', { principal: owner, id: signup.id }, TIMEOUT));
      const order = interleave(organizerEdits, tokenEdits, removals, cancels);
      order.splice(Math.floor(order.length / 3) + (round % 3) * 3, 0, deletion);
      const outcomes = await Promise.all(order.map((run) => run()));
      const of = (list: (() => Promise<Outcome>)[]) => outcomes.filter((_, i) => list.includes(order[i]!));

      expect(of([deletion])).toEqual(['ok']);
      // An edit after its participant's removal or cancellation is refused: it is cancelled.
      const editable = (i: number): Outcome[] => (i < 2 || i >= 6 ? ['ok', 'not_found', 'conflict'] : ['ok', 'not_found']);
      holders.forEach((_, i) => {
        expectOnly([of(organizerEdits)[i]!], editable(i));
        expectOnly([of(tokenEdits)[i]!], editable(i));
      });
      expectOnly(of(removals), ['ok', 'not_found']);
      expectOnly(of(cancels), ['ok', 'not_found']);
      const [left] = (await db.query(
        `SELECT (SELECT count(*)::int FROM signups.signups WHERE id = $1) AS signups,
                (SELECT count(*)::int FROM signups.slots WHERE signup_id = $1) + (SELECT count(*)::int FROM signups.items WHERE signup_id = $1) AS contents,
                (SELECT count(*)::int FROM signups.participants WHERE signup_id = $1) AS participants,
                (SELECT count(*)::int FROM signups.selections WHERE target_id = ANY($2::uuid[])) AS selections`,
        [signup.id, [a!.id, b!.id, cake!.id]],
      )) as { signups: number; contents: number; participants: number; selections: number }[];
      expect(left).toEqual({ signups: 0, contents: 0, participants: 0, selections: 0 });
    }
  }, 120_000);
});

describe('organizer removals racing token cancellations of the same participants', () => {
  it('cancels each participant once, gives back exactly what it held, and keeps the counts equal to the rows', async () => {
    const owner = caller();
    const {
      signup,
      slots: [slot],
      items: [item],
    } = await h.signup(owner, {
      signup: { maxParticipants: 100 },
      slots: [{ title: 'Shift', capacity: 60 }],
      items: [{ name: 'Chairs', quantityNeeded: 60 }],
    });
    const S = { type: 'slot', id: slot!.id } as const;
    const I = { type: 'item', id: item!.id } as const;
    const holders: { id: string; token: string }[] = [];
    for (let i = 0; i < 20; i++)
      holders.push(await registered(signup.id, i % 2 === 0 ? [S, { ...I, quantity: 2 }] : [{ ...S, quantity: 2 }]));
    const keep = await registered(signup.id, [S, I]);

    const removals = holders.map(
      ({ id }) =>
        () =>
          outcome(removeByOrganizer(owner, signup.id, id)),
    );
    const cancels = holders.map(
      ({ token }) =>
        () =>
          outcome(cancelByToken(token)),
    );
    const order = interleave(cancels, removals);
    const outcomes = await Promise.all(order.map((run) => run()));
    const of = (list: (() => Promise<Outcome>)[]) => outcomes.filter((_, i) => list.includes(order[i]!));

    expectOnly(of(removals), ['ok']);
    expectOnly(of(cancels), ['ok']);
    await expectConsistent(signup.id);
    await eventually(() => holders.forEach(({ id }) => expect(h.eventsFor(id, 'participant.canceled')).toHaveLength(1)));
    const read = await h.stack.bus.request('signups.get', { principal: owner, id: signup.id });
    expect(read.participantCount).toBe(1);
    expect(read.slots![0]).toMatchObject({ taken: 1 });
    expect(read.items![0]).toMatchObject({ quantityClaimed: 1 });
    expect((await h.stack.bus.request('signups.registrations.get', { token: keep.token })).participant.id).toBe(keep.id);
  }, 60_000);
});

/** Polls until the number of this database's sessions waiting for a lock reaches `count`, or `done()` holds. */
async function untilWaiting(count: number, done: () => boolean = () => false): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [{ waiting }] = (await db.query(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    )) as { waiting: number }[];
    if (waiting >= count || done()) return;
    if (Date.now() > deadline) throw new Error(`expected ${count} session(s) waiting for a lock`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs work in a transaction of the test's own, on its own connection, until release(commit) is called. */
async function heldTransaction(): Promise<{ runner: QueryRunner; release(commit: boolean): Promise<void> }> {
  const runner = db.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  return {
    runner,
    async release(commit) {
      if (commit) await runner.commitTransaction();
      else await runner.rollbackTransaction();
      await runner.release();
    },
  };
}

describe('a token edit racing the close of its signup', () => {
  async function setup(): Promise<{ owner: Principal; signup: SignupView; token: string; to: string }> {
    const owner = caller();
    const {
      signup,
      slots: [from, to],
    } = await h.signup(owner, {
      slots: [
        { title: 'From', capacity: 5 },
        { title: 'To', capacity: 5 },
      ],
    });
    const { token } = await registered(signup.id, [{ type: 'slot', id: from!.id }]);
    return { owner, signup, token, to: to!.id };
  }

  it('never commits after the close: a close that comes while the edit runs waits for it', async () => {
    const { owner, signup, token, to } = await setup();
    // The edit stops at the slot it moves to, after it has checked that the signup is open.
    const held = await heldTransaction();
    await held.runner.query('SELECT id FROM signups.slots WHERE id = $1 FOR UPDATE', [to]);
    const edit = outcome(editByToken(token, [{ type: 'slot', id: to }]));
    await untilWaiting(1);
    let closed = false;
    const close = outcome(h.stack.bus.request('signups.close', { principal: owner, id: signup.id }, TIMEOUT)).finally(() => {
      closed = true;
    });
    await untilWaiting(2, () => closed);
    const closedWhileTheEditRan = closed;
    await held.release(false);

    expect({ edit: await edit, close: await close, closedWhileTheEditRan }).toEqual({
      edit: 'ok',
      close: 'ok',
      closedWhileTheEditRan: false,
    });
    const view = await h.stack.bus.request('signups.registrations.get', { token });
    expect(view.participant.selections).toEqual([{ type: 'slot', id: to, quantity: 1 }]);
    expect(view.signup.status).toBe('closed');
    expect((await problemOf(editByToken(token, []))).code).toBe('bad_request');
  }, 30_000);

  it('is refused once a close that was already under way commits', async () => {
    const { signup, token } = await setup();
    const held = await heldTransaction();
    await held.runner.query(`UPDATE signups.signups SET status = 'closed', closed_at = now() WHERE id = $1`, [signup.id]);
    let settled = false;
    const edit = outcome(editByToken(token, [])).finally(() => {
      settled = true;
    });
    await untilWaiting(1, () => settled);
    await held.release(true);

    expect(await edit).toBe('bad_request');
    expect((await h.stack.bus.request('signups.registrations.get', { token })).participant.selections).toHaveLength(1);
  }, 30_000);
});

describe('registration answering from the signup row it locked', () => {
  it('answers 400 full, never 409, even when the signup looks open again a moment later', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner, { signup: { maxParticipants: 1 } });
    await registered(signup.id, []);
    // A read made after a refused admission sees a place that a cancellation freed and the next
    // registration took again at once: the answer must not depend on such a read.
    const repository = h.app.app.get(SignupsRepository);
    const findById = repository.findById;
    repository.findById = async (id, manager) => {
      const found = await findById.call(repository, id, manager);
      return found && id === signup.id ? { ...found, participantCount: 0 } : found;
    };
    try {
      const problem = await problemOf(register(signup.id, []));
      expect(problem).toMatchObject({ code: 'bad_request', detail: 'This signup is full: all 1 places are taken.' });
    } finally {
      repository.findById = findById;
    }
    await expectConsistent(signup.id);
  });
});

describe('a registration waiting for its signup row', () => {
  it('holds none of its slots yet: an edit that holds the signup row first can still take them (no deadlock)', async () => {
    const owner = caller();
    const {
      signup,
      slots: [slot],
    } = await h.signup(owner, { slots: [{ title: 'Setup', capacity: 2 }] });
    // Like an edit of a registration: the signup row shared first, then the slot.
    const held = await heldTransaction();
    await held.runner.query('SELECT id FROM signups.signups WHERE id = $1 FOR SHARE', [signup.id]);
    const registration = register(signup.id, [{ type: 'slot', id: slot!.id }]);
    await untilWaiting(1);
    await held.runner.query(`SET LOCAL lock_timeout = '2s'`);
    await held.runner.query('UPDATE signups.slots SET taken = taken + 1 WHERE id = $1', [slot!.id]);
    await held.release(true);

    expect(await registration).toMatchObject({ success: true, failed: [] });
    const read = await h.stack.bus.request('signups.get', { principal: owner, id: signup.id });
    expect(read.slots![0]).toMatchObject({ taken: 2 });
  }, 30_000);

  it('takes a place that was freed while it waited for the signup row', async () => {
    const owner = caller();
    const {
      signup,
      slots: [slot],
    } = await h.signup(owner, { slots: [{ title: 'Setup', capacity: 1 }] });
    await registered(signup.id, [{ type: 'slot', id: slot!.id }]);
    // Like an organizer raising the capacity of the full slot while the registration queues.
    const held = await heldTransaction();
    await held.runner.query('SELECT id FROM signups.signups WHERE id = $1 FOR SHARE', [signup.id]);
    const registration = register(signup.id, [{ type: 'slot', id: slot!.id }]);
    await untilWaiting(1);
    await held.runner.query('UPDATE signups.slots SET capacity = 2 WHERE id = $1', [slot!.id]);
    await held.release(true);

    expect(await registration).toMatchObject({ success: true, failed: [] });
    await expectConsistent(signup.id);
  }, 30_000);
});
